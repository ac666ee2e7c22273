/**
 * Who is emailed about a conversation's unanswered messages, and after how long: the one SQL
 * place that says it (issue 26), used by the statement that stores a message, the re-arming
 * after a read and the sweep. One row per person: `recipient_role` (the side they read from),
 * `user_id`, `delay_minutes` (1-60), `email` and `name`.
 * - The owner's side: the client's assigned members (client_assignees), each with their own
 *   delay; when nobody is assigned, the workspace's owner. Admins are not emailed for every
 *   client: they see them all, and a message would reach the whole team.
 * - The client's side: its people who joined (issue 26, contacts), each with their own delay:
 *   the first contact is the client row (its user, address and delay), the others
 *   client_contacts rows.
 *
 * `clientId` is the SQL expression of the conversation (a column of the calling statement): the
 * fragment is a LATERAL subquery, so each branch is an index lookup for that one client.
 */
export function notificationRecipients(clientId: string): string {
  return `lateral (
    select 'owner'::text as recipient_role, u.id as user_id,
           u.email_notification_delay as delay_minutes, u.email, u.full_name as name
      from client_assignees a join users u on u.id = a.user_id
     where a.client_id = ${clientId}
    union all
    select 'owner', o.id, o.email_notification_delay, o.email, o.full_name
      from clients c join users o on o.id = c.owner_id
     where c.id = ${clientId}
       and not exists (select 1 from client_assignees a where a.client_id = c.id)
    union all
    select 'client', c.user_id, c.email_notification_delay, c.email, c.name
      from clients c
     where c.id = ${clientId} and c.user_id is not null and c.joined_at is not null
    union all
    select 'client', cc.user_id, cc.email_notification_delay, cc.email, cc.name
      from client_contacts cc
     where cc.client_id = ${clientId} and cc.user_id is not null
  )`;
}
