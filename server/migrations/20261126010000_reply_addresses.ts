import type { Knex } from "knex";

/**
 * Reply by email (server/inbound): one reply address per person and conversation, looked up by
 * the SHA-256 of its token and kept encrypted (key from the session secret) so that later mails
 * to the same person carry the same address. Revoked ones stay (refused at RCPT); they go with
 * their conversation or person. reply_message_ids remembers the Message-IDs received per
 * address, so that a mail delivered twice posts once: claimed (received_at) before posting,
 * posted_at set once posted; a claim left unposted is taken over after a lease.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("reply_addresses", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.uuid("client_id").notNullable().references("clients.id").onDelete("CASCADE").index();
    t.string("token_hash", 64).notNullable().unique();
    t.text("token_encrypted").notNullable();
    t.timestamp("revoked_at", { useTz: true });
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // At most one live address per person and conversation (minting races settle on it).
  await knex.raw(
    "create unique index reply_addresses_live on reply_addresses (user_id, client_id) where revoked_at is null",
  );
  await knex.schema.createTable("reply_message_ids", (t) => {
    t.uuid("reply_address_id").notNullable().references("reply_addresses.id").onDelete("CASCADE");
    t.string("message_id_hash", 64).notNullable();
    t.timestamp("received_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("posted_at", { useTz: true });
    t.primary(["reply_address_id", "message_id_hash"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("reply_message_ids");
  await knex.schema.dropTable("reply_addresses");
}
