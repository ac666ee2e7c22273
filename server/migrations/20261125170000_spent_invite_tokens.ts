import type { Knex } from "knex";

/**
 * Invite tokens that were used or replaced, kept by their hash, so that opening an old link
 * can say "already used" (and offer a sign-in link) instead of "invalid". Only the hash: a
 * stolen table opens nothing. They go with their client.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("spent_invite_tokens", (t) => {
    t.string("token_hash", 64).primary();
    t.uuid("client_id").notNullable().references("clients.id").onDelete("CASCADE").index();
    t.timestamp("spent_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("spent_invite_tokens");
}
