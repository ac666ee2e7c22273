import type { Knex } from "knex";

/**
 * Issue 25: a change to users, sessions or clients is announced to every instance by the
 * database, at commit (NOTIFY is transactional), so the caches of sessions and of clients can
 * keep an entry for longer than a moment and still forget it as soon as the row changed
 * anywhere. One NOTIFY per statement,
 * naming the table (PostgreSQL folds identical ones of a transaction into one); inserts add rows nobody
 * has cached, so only updates, deletes and truncates announce.
 */
// Written out, not imported: a migration stays as it ran (server/db/cached-rows.ts names them).
const CHANNEL = "clientdesk_cached_rows";
const TABLES = ["users", "sessions", "clients"];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create function announce_cached_rows_changed() returns trigger
      language plpgsql
      as $$
      begin
        perform pg_notify('${CHANNEL}', tg_table_name);
        return null;
      end
      $$`);
  for (const table of TABLES) {
    await knex.raw(`
      create trigger ${table}_changed_announced
        after update or delete on ${table}
        for each statement execute function announce_cached_rows_changed()`);
    await knex.raw(`
      create trigger ${table}_truncated_announced
        after truncate on ${table}
        for each statement execute function announce_cached_rows_changed()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.raw(`drop trigger if exists ${table}_changed_announced on ${table}`);
    await knex.raw(`drop trigger if exists ${table}_truncated_announced on ${table}`);
  }
  await knex.raw("drop function if exists announce_cached_rows_changed()");
}
