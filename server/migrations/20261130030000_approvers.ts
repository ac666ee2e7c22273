import type { Knex } from "knex";

/**
 * Issue 27, who must approve (docs/decisions.md, "Approvers"). A file sent for approval says
 * whether any one of the client's people decides for all (`any`, as before) or every one of
 * them must (`everyone`). Each person's decision is a row of `approval_decisions`: with
 * `everyone` one pending row per required person is written when the version is sent (the
 * snapshot of who is asked), with `any` the one decision is written when it is taken.
 * `files.sha256` keeps the stored bytes' hash once the approval record has computed it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table messages
      add column approval_rule text not null default 'any'
        constraint messages_approval_rule check (approval_rule in ('any', 'everyone'))`);
  await knex.schema.createTable("approval_decisions", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("message_id").notNullable().references("messages.id").onDelete("CASCADE");
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE").index();
    // The order the people are listed in (the client's own order: first contact first).
    t.integer("position").notNullable().defaultTo(0);
    t.text("status").notNullable().defaultTo("pending");
    t.text("comment");
    t.timestamp("decided_at", { useTz: true });
    t.unique(["message_id", "user_id"]);
  });
  await knex.raw(`
    alter table approval_decisions add constraint approval_decisions_status
      check (status in ('pending', 'approved', 'needs_work'))`);
  await knex.schema.alterTable("files", (t) => {
    t.string("sha256", 64);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("files", (t) => {
    t.dropColumn("sha256");
  });
  await knex.schema.dropTableIfExists("approval_decisions");
  await knex.raw("alter table messages drop column if exists approval_rule");
}
