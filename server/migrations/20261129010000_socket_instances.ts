import type { Knex } from "knex";

/**
 * Presence without a row per user every 20 s (issue 25): each instance that holds sockets
 * keeps one socket_instances row fresh; a socket_presence row counts while its instance's row
 * is younger than a minute, and is written only when a user's first socket opens there.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("socket_instances", (t) => {
    t.string("id", 64).primary();
    t.timestamp("seen_at", { useTz: true }).notNullable();
  });
  await knex.schema.alterTable("socket_presence", (t) => {
    t.index(["instance_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("socket_presence", (t) => {
    t.dropIndex(["instance_id"]);
  });
  await knex.schema.dropTable("socket_instances");
}
