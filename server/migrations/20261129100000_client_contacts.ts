import type { Knex } from "knex";

/**
 * Issue 26, several people per client. Every client user now names its client
 * (`users.client_id`): that, not `clients.user_id`, says whose conversation a client-side person
 * is in. The first contact is the client as before (its name, address, invite, delay and user on
 * the clients row); each further contact is a row of `client_contacts` with its own invite, user,
 * and delay; each client-side person has their own read mark. Removing a contact deletes its row; its user stays (what they wrote keeps
 * their name) but loses the client, so it can no longer sign in or open anything.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.uuid("client_id").references("clients.id").onDelete("SET NULL").index();
  });
  await knex.raw(
    "update users set client_id = c.id from clients c where c.user_id = users.id and users.role = 'client'",
  );
  await knex.schema.createTable("client_contacts", (t) => {
    t.uuid("id").primary();
    t.uuid("client_id").notNullable().references("clients.id").onDelete("CASCADE").index();
    t.uuid("user_id").references("users.id").onDelete("SET NULL").unique();
    t.string("name", 100).notNullable();
    t.string("email", 255).notNullable();
    t.string("invite_token_hash", 64).unique();
    t.text("invite_token_encrypted");
    t.timestamp("invite_issued_at", { useTz: true });
    t.timestamp("joined_at", { useTz: true });
    t.integer("email_notification_delay").notNullable().defaultTo(5);
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "alter table client_contacts add constraint client_contacts_delay_range check (email_notification_delay between 1 and 60)",
  );
  await knex.raw(
    "create unique index client_contacts_email on client_contacts (client_id, lower(email))",
  );
  // Each client-side person's own read mark (the owner sees who has read what). The side's
  // mark in notification_states stays the furthest of them: it drives "Seen" and the emails.
  await knex.schema.createTable("contact_read_marks", (t) => {
    t.uuid("user_id").primary().references("users.id").onDelete("CASCADE");
    t.uuid("client_id").notNullable().references("clients.id").onDelete("CASCADE").index();
    t.bigInteger("last_read_seq").notNullable().defaultTo(0);
    t.timestamp("read_at", { useTz: true });
  });
  await knex.raw(
    `insert into contact_read_marks (user_id, client_id, last_read_seq)
     select c.user_id, c.id, coalesce(ns.last_read_seq, 0) from clients c
       left join notification_states ns on ns.client_id = c.id and ns.recipient_role = 'client'
      where c.user_id is not null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("contact_read_marks");
  await knex.schema.dropTableIfExists("client_contacts");
  await knex.schema.alterTable("users", (t) => {
    t.dropColumn("client_id");
  });
}
