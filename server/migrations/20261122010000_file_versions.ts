import type { Knex } from "knex";

/**
 * Versions of files sent for approval, and who decided. A "file thread" is its first message
 * (version_of null, version_number 1) and the messages whose version_of names it (2, 3, ...).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("messages", (t) => {
    t.uuid("version_of").references("messages.id").onDelete("CASCADE");
    t.integer("version_number").notNullable().defaultTo(1);
    t.uuid("feedback_by").references("users.id").onDelete("SET NULL");
    // Two uploads of the same version cannot both succeed.
    t.unique(["version_of", "version_number"]);
  });
  // "Which files wait for a decision": counted per conversation in the client list.
  await knex.raw(
    "create index messages_pending_feedback on messages (client_id) where feedback_status = 'pending'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists messages_pending_feedback");
  await knex.schema.alterTable("messages", (t) => {
    t.dropUnique(["version_of", "version_number"]);
    t.dropColumn("feedback_by");
    t.dropColumn("version_number");
    t.dropColumn("version_of");
  });
}
