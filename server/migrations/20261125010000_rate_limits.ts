import type { Knex } from "knex";

/**
 * Rate-limit windows shared by every instance on this PostgreSQL (server/security/rate-limiter.ts,
 * rate-limiter-flexible's RateLimiterPostgres): one row per key, its points used and the epoch
 * milliseconds its window ends. The library's own columns; `text` rather than its varchar(255)
 * because a key holds an address as typed.
 *
 * UNLOGGED: a counter is written on every attempt and is worth nothing after a crash, so it
 * skips the WAL (a crash or a failover to a standby empties it: limits start again). No index
 * on expire: the cleanup job's scan is rare, an index would be written on every new window.
 * PGlite has the table too but counts in process (RateLimiterMemory).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create unlogged table rate_limits (
      key text primary key,
      points integer not null default 0,
      expire bigint
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("rate_limits");
}
