import type { Knex } from "knex";

/**
 * Issue 26, the audit log: who did what in a workspace, and when. Each entry is written in the
 * transaction of what it records. The actor's and the subject's names are kept in the row, as
 * they were: a removed member, a deleted client or a deleted account still reads as it did.
 * Entries are kept 400 days (the audit-log-retention job).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("audit_entries", (t) => {
    t.uuid("id").primary();
    t.uuid("workspace_id").notNullable().references("users.id").onDelete("CASCADE");
    t.uuid("actor_id").references("users.id").onDelete("SET NULL");
    t.text("actor_name").notNullable();
    t.text("action").notNullable();
    t.text("subject_type").notNullable();
    t.uuid("subject_id");
    t.text("subject_label").notNullable();
    t.jsonb("details").notNullable().defaultTo("{}");
    t.timestamp("created_at", { useTz: true }).notNullable();
  });
  await knex.raw(
    "create index audit_entries_by_workspace on audit_entries (workspace_id, created_at desc, id desc)",
  );
  // The retention job deletes by age across workspaces.
  await knex.raw("create index audit_entries_by_age on audit_entries (created_at)");
  // actor_id is set null when the actor's account goes: indexed for that delete.
  await knex.raw("create index audit_entries_by_actor on audit_entries (actor_id)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("audit_entries");
}
