import type { Knex } from "knex";

/**
 * Idempotency-Key claims of message and upload POSTs (server/idempotency). A row is claimed
 * before the work starts (claim_token names the attempt running it); message_id is set in the
 * same transaction as the message, status and body once the answer is known.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("idempotency_keys", (t) => {
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.string("key", 255).notNullable();
    t.string("fingerprint", 600).notNullable();
    t.uuid("claim_token").notNullable();
    t.uuid("message_id").references("messages.id").onDelete("CASCADE");
    t.integer("status");
    t.jsonb("body");
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.primary(["user_id", "key"]);
  });
  // The cleanup job deletes by age.
  await knex.raw("create index idempotency_keys_created_at on idempotency_keys (created_at)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("idempotency_keys");
}
