import type { Knex } from "knex";

/**
 * Issue 26, several people per client. Every client user now names its client
 * (`users.client_id`): that, not `clients.user_id`, says whose conversation a client-side person
 * is in. The first contact is the client as before (its name, address, invite, delay and user on
 * the clients row); each further contact is a row of `client_contacts` with its own invite, user,
 * and delay. Removing a contact deletes its row; its user stays (what they wrote keeps
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
  // When each person last read (their mark is notification_states' per person since
  // 20261129090000): the People dialog says "Last read" with it.
  await knex.schema.alterTable("notification_states", (t) => {
    t.timestamp("read_at", { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("notification_states", (t) => {
    t.dropColumn("read_at");
  });
  await knex.schema.dropTableIfExists("client_contacts");
  await knex.schema.alterTable("users", (t) => {
    t.dropColumn("client_id");
  });
}
