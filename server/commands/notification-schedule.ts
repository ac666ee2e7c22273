import type { Knex } from "knex";
import type { Role } from "../../shared/schemas/user";
import type { User } from "../models";
import { notificationRecipients } from "./notification-recipients";

/**
 * When a person's unanswered-messages email about a conversation falls due
 * (`notification_states.due_at`, one row per conversation and person since issue 26). The
 * rules, all in the database so that a restart or a second server instance sees the same thing:
 * - a message schedules the email of each of the other side's recipients
 *   (notification-recipients.ts) at now + their own delay, unless one is already scheduled (it
 *   covers this message too) or their last email is still unacknowledged (one email until the
 *   recipient comes back: reading or answering re-arms it);
 * - answering (sending anything) cancels the pending emails of the sender's whole side: the
 *   other side got its answer;
 * - reading cancels the reader's own email only, or restarts their wait when something still
 *   waits past their read mark.
 * The sweep (send-unanswered-notifications.ts) checks again what waits before it sends.
 */

export function otherRole(role: Role): Role {
  return role === "owner" ? "client" : "owner";
}

/**
 * SQL: message `m` of the conversation `clientId` waits for a person of side `role` who has
 * read up to `afterSeq`: it is the other side's, meant for both sides, past the mark, and past
 * the side's last answer (a colleague's answer settles what came before it for everyone), and
 * not deleted (issue 28; a deleted answer still answered what came before it).
 */
export function waitingCondition(clientId: string, role: string, afterSeq: string): string {
  return `m.sender_role <> ${role} and m.visibility = 'client' and m.deleted_at is null
    and m.seq > ${afterSeq}
    and m.seq > coalesce((select a.seq from messages a
                           where a.client_id = ${clientId} and a.sender_role = ${role}
                             and a.visibility = 'client'
                           order by a.seq desc limit 1), 0)`;
}

/**
 * What sending a message does to the emails, as three CTEs for the statement that stores the
 * message (send-message.ts), over its CTE `message` (client_id, seq, visibility):
 * - `answered`: everything up to the message counts as read and answered by the sender;
 * - `side_answered`: the pending emails of the sender's colleagues (same side) are cancelled;
 * - `scheduled`: each recipient's email falls due at now + their delay, unless one is already
 *   scheduled (it covers this message too) or their last one is still unacknowledged. A client
 *   who has not joined yet gets none (they cannot sign in; the invite is their way in).
 * An internal note (issue 26, `message.visibility`) does none of it: it answers nobody and is
 * nothing to the client.
 */
export function messageSentCtes(
  sender: Pick<User, "id" | "role">,
  now: Date,
): { sql: string; bindings: Knex.Value[] } {
  const recipient = otherRole(sender.role);
  return {
    sql: `answered as (
       insert into notification_states (client_id, recipient_role, recipient_user_id, last_read_seq, read_at)
       select client_id, ?, ?, seq, cast(? as timestamptz) from message where visibility = 'client'
       on conflict (client_id, recipient_user_id) do update
          set last_read_seq = greatest(notification_states.last_read_seq, excluded.last_read_seq),
              read_at = excluded.read_at, due_at = null, attempts = 0, last_error = null
     ), side_answered as (
       update notification_states ns set due_at = null, attempts = 0, last_error = null
         from message m
        where m.visibility = 'client' and ns.client_id = m.client_id
          and ns.recipient_role = ? and ns.recipient_user_id <> ? and ns.due_at is not null
     ), scheduled as (
       insert into notification_states (client_id, recipient_role, recipient_user_id, due_at)
       select m.client_id, r.recipient_role, r.user_id,
              cast(? as timestamptz) + r.delay_minutes * interval '1 minute'
         from message m cross join ${notificationRecipients("m.client_id")} r
        where m.visibility = 'client' and r.recipient_role = ?
       on conflict (client_id, recipient_user_id) do update
          set due_at = excluded.due_at, attempts = 0, last_error = null
        where notification_states.due_at is null
          and notification_states.last_notified_seq <= notification_states.last_read_seq
     )`,
    bindings: [sender.role, sender.id, now, sender.role, sender.id, now, recipient],
  };
}

/**
 * `reader` has just read further: nothing waits past their mark any more, so their pending
 * email goes; or something does (it arrived after the page loaded), so their wait restarts from
 * now. Only their own: a colleague who has not read it is still emailed. Someone who is no
 * longer a recipient (unassigned) has no wait to restart.
 */
export async function rescheduleAfterRead(
  db: Knex,
  clientId: string,
  reader: Pick<User, "id">,
  now: Date,
): Promise<void> {
  await db.raw(
    `update notification_states ns
        set due_at = case
              when ns.last_notified_seq <= ns.last_read_seq and exists (
                select 1 from messages m
                 where m.client_id = ns.client_id
                   and ${waitingCondition("ns.client_id", "ns.recipient_role", "ns.last_read_seq")})
              then cast(? as timestamptz) + (
                select r.delay_minutes from ${notificationRecipients("ns.client_id")} r
                 where r.user_id = ns.recipient_user_id) * interval '1 minute'
              else null end,
            attempts = 0, last_error = null
      where ns.client_id = ? and ns.recipient_user_id = ?`,
    [now, clientId, reader.id],
  );
}
