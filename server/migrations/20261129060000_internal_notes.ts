import type { Knex } from "knex";

/**
 * Issue 26, internal notes: a message is for both sides of its conversation (`client`) or for
 * the workspace's staff only (`internal`), which the client never receives by any path.
 * Existing messages are all the client's to read. Adding a column with a constant default
 * rewrites no rows (PostgreSQL 11+), and the statement that appends a message names its
 * columns, so a server of the previous release keeps writing `client` messages meanwhile.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table messages
      add column visibility text not null default 'client'
        constraint messages_visibility check (visibility in ('client', 'internal'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table messages drop column if exists visibility");
}
