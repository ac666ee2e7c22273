import type { Knex } from "knex";

/**
 * Issue 27, point 4: due dates and reminders.
 * - `file_due_dates`: the due date of a file thread sent for approval, one row per thread (its
 *   first message), so that a new version keeps it; a calendar date, no time.
 * - `users.time_zone`: the IANA zone the person's browser reports (null: UTC), in which their
 *   reminders fall at 09:00 and "today" is judged.
 * - `due_reminders`: one row per version, person and kind of reminder sent, written in the
 *   transaction of its outbox mail: the primary key is what makes each one go out once, on
 *   any number of instances.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("file_due_dates", (t) => {
    t.uuid("thread_id").primary().references("messages.id").onDelete("CASCADE");
    t.date("due_date").notNullable().index();
    t.uuid("set_by").references("users.id").onDelete("SET NULL");
    t.timestamp("updated_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.schema.alterTable("users", (t) => {
    t.string("time_zone", 64);
  });
  await knex.schema.createTable("due_reminders", (t) => {
    t.uuid("message_id").notNullable().references("messages.id").onDelete("CASCADE");
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE").index();
    t.string("kind", 16).notNullable();
    t.timestamp("sent_at", { useTz: true }).notNullable();
    t.primary(["message_id", "user_id", "kind"]);
  });
  await knex.raw(
    "alter table due_reminders add constraint due_reminders_kind check (kind in ('due_tomorrow', 'due_today'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("due_reminders");
  await knex.schema.alterTable("users", (t) => {
    t.dropColumn("time_zone");
  });
  await knex.schema.dropTableIfExists("file_due_dates");
}
