import type { Knex } from "knex";
import type { Role } from "../../shared/schemas/user";

/**
 * When the unanswered-messages email of one side of a conversation falls due
 * (`notification_states.due_at`). The rules, all in the database so that a restart or a second
 * server instance sees the same thing:
 * - a message schedules the other side's email at now + that side's delay, unless one is
 *   already scheduled (it covers this message too) or the last email is still unacknowledged
 *   (one email until the recipient comes back: reading or answering re-arms it);
 * - answering (sending anything) cancels the sender's own pending email;
 * - reading cancels it, or restarts the wait when something still waits past the read mark.
 * The sweep (send-unanswered-notifications.ts) checks again what waits before it sends.
 */

/** The recipient's delay in minutes: the owner's user setting or the client's own. */
const DELAY_MINUTES = `(case when ns.recipient_role = 'owner'
   then (select o.email_notification_delay from clients c join users o on o.id = c.owner_id where c.id = ns.client_id)
   else (select c.email_notification_delay from clients c where c.id = ns.client_id) end)`;

export function otherRole(role: Role): Role {
  return role === "owner" ? "client" : "owner";
}

/**
 * What sending a message does to both sides' emails, as two CTEs for the statement that
 * stores the message (send-message.ts), over its CTEs `message` (client_id, seq) and
 * `conversation` (id, joined_at, owner_delay, client_delay):
 * - `answered`: everything up to the message counts as read and answered by the sender, so
 *   their own pending email is cancelled;
 * - `scheduled`: the recipient's email falls due at now + their delay, unless one is already
 *   scheduled (it covers this message too) or the last one is still unacknowledged. A client
 *   who has not joined yet gets none (they cannot sign in; the invite is their way in).
 * An internal note (issue 26, `message.visibility`) does neither: it answers nobody and is
 * nothing to the client.
 */
export function messageSentCtes(sender: Role, now: Date): { sql: string; bindings: Knex.Value[] } {
  const recipient = otherRole(sender);
  return {
    sql: `answered as (
       insert into notification_states (client_id, recipient_role, last_read_seq)
       select client_id, ?, seq from message where visibility = 'client'
       on conflict (client_id, recipient_role) do update
          set last_read_seq = greatest(notification_states.last_read_seq, excluded.last_read_seq),
              due_at = null, attempts = 0, last_error = null
     ), scheduled as (
       insert into notification_states (client_id, recipient_role, due_at)
       select m.client_id, ?, cast(? as timestamptz)
              + (case when ? = 'owner' then c.owner_delay else c.client_delay end) * interval '1 minute'
         from message m join conversation c on c.id = m.client_id
        where m.visibility = 'client' and (? = 'owner' or c.joined_at is not null)
       on conflict (client_id, recipient_role) do update
          set due_at = excluded.due_at, attempts = 0, last_error = null
        where notification_states.due_at is null
          and notification_states.last_notified_seq <= notification_states.last_read_seq
     )`,
    bindings: [sender, recipient, now, recipient, recipient],
  };
}

/**
 * `role` has just read further: nothing waits past the mark any more, so the pending email
 * goes; or something does (it arrived after the page loaded), so the wait restarts from now.
 */
export async function rescheduleAfterRead(
  db: Knex,
  clientId: string,
  role: Role,
  now: Date,
): Promise<void> {
  await db.raw(
    `update notification_states ns
        set due_at = case
              when ns.last_notified_seq <= ns.last_read_seq and exists (
                select 1 from messages m
                 where m.client_id = ns.client_id and m.sender_role <> ns.recipient_role
                   and m.visibility = 'client' and m.seq > ns.last_read_seq)
              then cast(? as timestamptz) + ${DELAY_MINUTES} * interval '1 minute'
              else null end,
            attempts = 0, last_error = null
      where ns.client_id = ? and ns.recipient_role = ?`,
    [now, clientId, role],
  );
}
