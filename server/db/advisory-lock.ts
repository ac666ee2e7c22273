import type { Knex } from "knex";
import { createDatabase, type Database, isPglite } from "./connection";

/**
 * Runs `work` only if no other server instance holds the lock `key` (a PostgreSQL
 * transaction-level advisory lock, released when the work ends, also by a crash); answers
 * undefined when another instance has it. PGlite serves one process only, whose job runner
 * already keeps passes of a job apart, so there it just runs (outside a transaction, so the
 * single connection stays free for requests).
 */
export async function withAdvisoryLock<T>(
  db: Database,
  key: number,
  work: (db: Knex) => Promise<T>,
): Promise<T | undefined> {
  if (isPglite(db)) return work(db);
  return db.transaction(async (trx) => {
    const result = await trx.raw("select pg_try_advisory_xact_lock(?) as locked", [key]);
    if (!result.rows[0]?.locked) return undefined;
    return work(trx);
  });
}

/**
 * Runs `work` while holding the advisory lock `key` on a connection of its own to `url`,
 * waiting for it as long as another instance holds it: the second instance runs its `work`
 * after the first's, not beside it or instead of it. The lock is a transaction's, kept open
 * (and so its connection checked out, out of reach of the pool's idle timeout) until `work`
 * ends; an instance that dies holding it frees it.
 */
export async function whileHoldingAdvisoryLock<T>(
  url: string,
  key: number,
  work: () => Promise<T>,
): Promise<T> {
  // No statement timeout: waiting for another instance's migrations may take long.
  const lock = createDatabase({ url, poolMax: 1, timeouts: false });
  try {
    return await lock.transaction(async (trx) => {
      await trx.raw("select pg_advisory_xact_lock(?)", [key]);
      return work();
    });
  } finally {
    await lock.destroy();
  }
}

/** Keys of the advisory locks, one per kind of work; listed here so that none collide. */
export const ADVISORY_LOCKS = {
  migrations: 92_000,
  storageSweep: 92_001,
} as const;
