import type { Knex } from "knex";

/**
 * Issue 28, point 2: scheduled send. A scheduled message waits in a table of its own, so that
 * no query of the conversation, search, email or export can ever show it; the
 * `scheduled-messages` job (or Send now) deletes the row and appends the real message in one
 * transaction. Deleting the client or the author deletes what they scheduled.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("scheduled_messages", (t) => {
    t.uuid("id").primary();
    t.uuid("client_id").notNullable().references("clients.id").onDelete("CASCADE");
    t.uuid("author_id").notNullable().references("users.id").onDelete("CASCADE").index();
    /** The author's side of the conversation (owner or client), which alone sees it. */
    t.string("author_role", 16).notNullable();
    t.text("content").notNullable();
    t.string("visibility", 16).notNullable().defaultTo("client");
    t.timestamp("send_at", { useTz: true }).notNullable().index();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["client_id", "send_at"]);
  });
  await knex.raw(
    `alter table scheduled_messages
       add constraint scheduled_messages_author_role check (author_role in ('owner', 'client')),
       add constraint scheduled_messages_visibility check (visibility in ('client', 'internal'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("scheduled_messages");
}
