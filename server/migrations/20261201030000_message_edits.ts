import type { Knex } from "knex";

/**
 * Issue 28, point 3: editing and deleting a message (docs/decisions.md, "Editing and deleting
 * messages").
 * - `messages.edited_at`: when its text last changed (null: never); `messages.deleted_at`: when
 *   its author deleted it. The row stays (ordering, read marks, catch-up after an id hold) but a
 *   deleted message's text and file are emptied in the same statement, so no view, search or
 *   email can show them.
 * - `message_edits`: each text a message had before an edit, with when and who replaced it:
 *   the workspace's staff read them ("Edited: previous text"). Deleting the message deletes them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("messages", (t) => {
    t.timestamp("edited_at", { useTz: true });
    t.timestamp("deleted_at", { useTz: true });
  });
  await knex.schema.createTable("message_edits", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("message_id").notNullable().references("messages.id").onDelete("CASCADE");
    t.text("content").notNullable();
    t.timestamp("edited_at", { useTz: true }).notNullable();
    t.uuid("editor_id").references("users.id").onDelete("SET NULL");
    t.index(["message_id", "edited_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("message_edits");
  await knex.schema.alterTable("messages", (t) => {
    t.dropColumn("deleted_at");
    t.dropColumn("edited_at");
  });
}
