import type { Knex } from "knex";

/**
 * The durable mail outbox (issue 23): every outgoing email is a row written in the same
 * transaction as the change it tells of, sent after commit and retried with backoff until a
 * day has passed (then `dead`). A sent row is deleted: its body may hold a code or a link.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("outgoing_mails", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    // Instances send the rows of their queue: one ("") in production; the tests run many apps,
    // each with its own SMTP server, on one database, and give each its own.
    t.string("queue", 64).notNullable().defaultTo("");
    // What the mail is (verification, invite, unanswered-messages...), for logs and metrics.
    t.string("kind", 40).notNullable();
    // The rendered MailMessage (attachments base64), JSON.
    t.jsonb("message").notNullable();
    t.string("status", 10).notNullable().defaultTo("pending").checkIn(["pending", "dead"]);
    t.integer("attempts").notNullable().defaultTo(0);
    // Due for the next attempt; while an attempt runs, its lease (see server/mail/outbox.ts).
    t.timestamp("next_attempt_at", { useTz: true }).notNullable();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.text("last_error");
  });
  await knex.raw(
    "create index outgoing_mails_due on outgoing_mails (queue, next_attempt_at) where status = 'pending'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("outgoing_mails");
}
