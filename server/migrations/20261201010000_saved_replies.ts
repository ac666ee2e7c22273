import type { Knex } from "knex";

/**
 * Issue 28: a workspace's saved replies. `workspace_id` is the workspace (its owner's user id,
 * as `clients.owner_id`); `created_by` is who wrote it (may edit and delete it besides the
 * owner and admins), kept null once their account is deleted. A title is unique in its
 * workspace whatever its case: the composer's picker tells replies apart by title.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("saved_replies", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("workspace_id").notNullable().references("users.id").onDelete("CASCADE");
    t.uuid("created_by").references("users.id").onDelete("SET NULL").index();
    t.string("title", 100).notNullable();
    t.text("text").notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.timestamp("updated_at", { useTz: true }).notNullable();
  });
  await knex.raw(
    "create unique index saved_replies_title_per_workspace on saved_replies (workspace_id, lower(title))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("saved_replies");
}
