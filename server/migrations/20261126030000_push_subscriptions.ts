import type { Knex } from "knex";

/**
 * Web push (issue 13): each browser that turned notifications on, and which users have an
 * open socket on which instance (a new message is pushed only to a recipient without one).
 *
 * A subscription belongs to the session that made it: signing out (or a password change that
 * ends every session) removes it, so a shared phone stops showing that person's messages.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("push_subscriptions", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE").index();
    t.string("session_hash", 64)
      .notNullable()
      .references("sessions.id_hash")
      .onDelete("CASCADE")
      .index();
    t.text("endpoint").notNullable().unique();
    t.string("p256dh", 200).notNullable();
    t.string("auth", 100).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("last_success_at", { useTz: true });
  });
  await knex.schema.createTable("socket_presence", (t) => {
    t.string("instance_id", 64).notNullable();
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.timestamp("seen_at", { useTz: true }).notNullable();
    t.primary(["instance_id", "user_id"]);
    t.index(["user_id", "seen_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("socket_presence");
  await knex.schema.dropTable("push_subscriptions");
}
