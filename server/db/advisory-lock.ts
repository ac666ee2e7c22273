import type { Knex } from "knex";
import { type Database, isPglite } from "./connection";

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

/** Keys of the advisory locks, one per kind of work; listed here so that none collide. */
export const ADVISORY_LOCKS = {
  storageSweep: 92_001,
  /** Migrations at start-up (server/db/migrate.ts): one instance migrates, the others wait. */
  migrations: 92_002,
} as const;
