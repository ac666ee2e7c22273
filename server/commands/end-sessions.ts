import type { Knex } from "knex";
import type { Services } from "../context";
import type { RecordedEvent } from "../domain-events/events";

/**
 * Ends every session of `userId` inside `trx` (password change or reset, a re-issued invite, a
 * Google sign-in taking over an unverified account) and records SessionEnded, so their sockets
 * close on every instance once the caller dispatches it after commit. Null: none were open.
 */
export async function endSessionsOf(
  services: Pick<Services, "sessions" | "events">,
  trx: Knex.Transaction,
  userId: string,
): Promise<RecordedEvent | null> {
  const sessionHashes = await services.sessions.endAllSessions(userId, trx);
  if (sessionHashes.length === 0) return null;
  return await services.events.record(trx, { type: "SessionEnded", userId, sessionHashes });
}
