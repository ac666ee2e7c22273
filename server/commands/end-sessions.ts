import type { Knex } from "knex";
import type { Services } from "../context";
import type { RecordedEvent } from "../domain-events/events";

/**
 * Ends every session of `userId` inside `trx` (password change or reset, a re-issued invite, a
 * Google sign-in taking over an unverified account) and records SessionEnded, so their sockets
 * close on every instance once the caller dispatches it after commit. Null: none to close.
 *
 * `signedInAnew` is the session of the browser making the change, which the route signs in
 * again at once: its sockets close a few seconds later (RENEWED_SESSION_GRACE_MS), when that
 * browser holds its new cookie and reconnects with it. Closed now, they would reconnect before
 * the answer with the new cookie arrived, and be refused.
 */
export async function endSessionsOf(
  services: Pick<Services, "sessions" | "events">,
  trx: Knex.Transaction,
  userId: string,
  signedInAnew?: string,
): Promise<RecordedEvent | null> {
  const ended = await services.sessions.endAllSessions(userId, trx);
  const sessionHashes = ended.filter((hash) => hash !== signedInAnew);
  const renewed = signedInAnew && ended.includes(signedInAnew) ? signedInAnew : undefined;
  if (sessionHashes.length === 0 && !renewed) return null;
  return await services.events.record(trx, {
    type: "SessionEnded",
    userId,
    sessionHashes,
    ...(renewed ? { signedInAnew: renewed } : {}),
  });
}
