import type { Knex } from "knex";

/**
 * The Approve and Needs Work buttons of a notification email (docs/decisions.md, "Approve
 * from the inbox"): one row per button, naming the file message, the client user who may
 * decide and the decision. Only the token's SHA-256 is kept: a stolen table decides nothing.
 * A link works once (used_at) and for 7 days (expires_at); the hourly cleanup deletes expired
 * rows. They go with their message and with the client user.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("feedback_links", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.string("token_hash", 64).notNullable().unique();
    t.uuid("message_id").notNullable().references("messages.id").onDelete("CASCADE").index();
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE").index();
    t.string("decision", 16).notNullable();
    t.timestamp("expires_at", { useTz: true }).notNullable().index();
    t.timestamp("used_at", { useTz: true });
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "alter table feedback_links add constraint feedback_links_decision check (decision in ('approve', 'needs_work'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("feedback_links");
}
