import type { Knex } from "knex";

/**
 * Issue 26, seats: the seats an Agency workspace bought on top of the included ones, on its
 * owner's row beside the rest of billing. It mirrors the quantity of the subscription's seat
 * item as the provider last reported it (billing/billing-state.ts). A constant default rewrites
 * no rows, and a server of the previous release never writes the column.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table users
      add column extra_seats integer not null default 0
        constraint users_extra_seats check (extra_seats >= 0)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table users drop column if exists extra_seats");
}
