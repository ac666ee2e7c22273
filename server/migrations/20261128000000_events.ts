import type { Knex } from "knex";

/**
 * The domain events' outbox (issue 24): a command writes what happened as a row in the same
 * transaction as the change; after commit its instance runs the listeners (realtime, push,
 * metrics) and deletes the row. A row still here after its instance died is run by the
 * `domain-events` job on any instance (server/domain-events/domain-events.ts).
 *
 * No index but the key: the table holds only events in flight (a few rows), and every message
 * writes one, so an index on the job's columns would cost each send for a scan of a few rows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("events", (t) => {
    t.uuid("id").primary();
    // As the mail outbox: one queue ("") in production; the tests' apps each have their own.
    t.string("queue", 64).notNullable().defaultTo("");
    t.string("type", 40).notNullable();
    // The event's fields but its type, JSON (ids, never message text).
    t.jsonb("payload").notNullable();
    t.integer("attempts").notNullable().defaultTo(0);
    // Due for the job: a while after commit (the instance that wrote it runs it at once), then
    // after each failed attempt with backoff; while an attempt runs, its lease.
    t.timestamp("next_attempt_at", { useTz: true }).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.text("last_error");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("events");
}
