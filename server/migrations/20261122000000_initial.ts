import type { Knex } from "knex";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("users", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.string("email", 254).notNullable();
    t.string("password_hash");
    t.string("full_name", 100).notNullable();
    t.string("company_name", 100);
    t.string("role", 10).notNullable().checkIn(["owner", "client"]);
    t.string("profile_picture");
    t.string("company_logo");
    t.string("primary_color", 7).notNullable().defaultTo("#0093ff");
    t.string("background_color", 7).notNullable().defaultTo("#ffffff");
    t.string("text_color", 7).notNullable().defaultTo("#000000");
    t.integer("email_notification_delay").notNullable().defaultTo(5);
    t.string("account_tier", 10).notNullable().defaultTo("free").checkIn(["free", "pro", "agency"]);
    t.timestamp("email_verified_at", { useTz: true });
    t.string("google_subject").unique();
    t.string("subscription_status", 20).notNullable().defaultTo("none");
    t.string("billing_period", 10);
    t.timestamp("subscription_end_date", { useTz: true });
    t.timestamp("payment_failure_grace_end", { useTz: true });
    t.timestamp("paused_until", { useTz: true });
    t.string("stripe_customer_id").unique();
    t.string("stripe_subscription_id").unique();
    t.timestamps(true, true);
  });
  // One owner account per address; client users (one per conversation) may share an address.
  await knex.raw(
    "create unique index users_owner_email_unique on users (email) where role = 'owner'",
  );
  await knex.raw("create index users_email_index on users (email)");
  await knex.raw(
    "alter table users add constraint users_notification_delay_range check (email_notification_delay between 1 and 60)",
  );

  await knex.schema.createTable("sessions", (t) => {
    // sha256 of the cookie's random id: a stolen table opens no session.
    t.string("id_hash", 64).primary();
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE").index();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp("expires_at", { useTz: true }).notNullable().index();
    t.string("user_agent", 300);
  });

  await knex.schema.createTable("email_codes", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE");
    t.string("purpose", 20)
      .notNullable()
      .checkIn(["verify_email", "reset_password", "sign_in_link"]);
    t.string("code_hash", 64).notNullable();
    t.integer("failed_attempts").notNullable().defaultTo(0);
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("used_at", { useTz: true });
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["user_id", "purpose"]);
    // Sign-in links are looked up by the hash of the token they carry.
    t.index(["code_hash"]);
  });

  await knex.schema.createTable("clients", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("owner_id").notNullable().references("users.id").onDelete("CASCADE").index();
    t.uuid("user_id").references("users.id").onDelete("SET NULL").unique();
    t.string("name", 100).notNullable();
    t.string("email", 254).notNullable();
    t.string("invite_token_hash", 64).unique();
    // The live token, encrypted with the server secret, so the owner can copy the link again.
    t.text("invite_token_encrypted");
    t.timestamp("invite_issued_at", { useTz: true });
    t.timestamp("joined_at", { useTz: true });
    t.integer("email_notification_delay").notNullable().defaultTo(5);
    t.timestamps(true, true);
    // Sign-in links by email find the conversations of an address.
    t.index(["email"]);
  });
  await knex.raw(
    "alter table clients add constraint clients_notification_delay_range check (email_notification_delay between 1 and 60)",
  );

  await knex.schema.createTable("short_links", (t) => {
    t.string("code", 16).primary();
    t.uuid("client_id").notNullable().references("clients.id").onDelete("CASCADE").unique();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable("files", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.string("stored_name", 80).notNullable().unique();
    t.string("original_name", 255).notNullable();
    t.string("content_type", 100).notNullable();
    t.bigInteger("size_bytes").notNullable();
    t.uuid("uploaded_by").references("users.id").onDelete("SET NULL");
    t.uuid("client_id").references("clients.id").onDelete("CASCADE").index();
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable("messages", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    // Insertion order: keyset pagination and "everything after X" for catch-up.
    t.bigIncrements("seq", { primaryKey: false }).unique();
    t.uuid("client_id").notNullable().references("clients.id").onDelete("CASCADE");
    t.uuid("sender_id").references("users.id").onDelete("SET NULL");
    t.string("sender_role", 10).notNullable().checkIn(["owner", "client"]);
    t.text("content");
    t.uuid("file_id").references("files.id").onDelete("SET NULL");
    t.boolean("requires_feedback").notNullable().defaultTo(false);
    t.string("feedback_status", 12).checkIn(["pending", "approved", "needs_work"]);
    t.text("feedback_comment");
    t.timestamp("feedback_at", { useTz: true });
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["client_id", "seq"]);
  });

  // One row per conversation and recipient: what waits to be emailed.
  await knex.schema.createTable("notification_states", (t) => {
    t.uuid("client_id").notNullable().references("clients.id").onDelete("CASCADE");
    t.string("recipient_role", 10).notNullable().checkIn(["owner", "client"]);
    t.bigInteger("last_read_seq").notNullable().defaultTo(0);
    t.bigInteger("last_notified_seq").notNullable().defaultTo(0);
    t.timestamp("due_at", { useTz: true });
    t.integer("attempts").notNullable().defaultTo(0);
    t.text("last_error");
    t.primary(["client_id", "recipient_role"]);
    t.index(["due_at"]);
  });

  await knex.schema.createTable("billing_events", (t) => {
    t.string("id").primary();
    t.string("type").notNullable();
    t.timestamp("processed_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "billing_events",
    "notification_states",
    "messages",
    "files",
    "short_links",
    "clients",
    "email_codes",
    "sessions",
    "users",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
