import type { Knex } from "knex";

/**
 * Billing state the initial tables lack: the cancellation flow's answers, a pending cancel at
 * period end, the one retention discount, and the time of the newest billing fact applied to
 * the account (Stripe events may arrive out of order; older facts must not overwrite newer).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.boolean("cancel_at_period_end").notNullable().defaultTo(false);
    t.string("cancellation_reason", 40);
    t.text("cancellation_details");
    t.timestamp("cancellation_requested_at", { useTz: true });
    t.integer("retention_discount_cents");
    t.timestamp("retention_discount_at", { useTz: true });
    t.timestamp("billing_synced_at", { useTz: true });
  });
  // The grace-expiry job looks only at accounts in grace.
  await knex.raw(
    "create index users_payment_grace_index on users (payment_failure_grace_end) where payment_failure_grace_end is not null",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists users_payment_grace_index");
  await knex.schema.alterTable("users", (t) => {
    t.dropColumns(
      "cancel_at_period_end",
      "cancellation_reason",
      "cancellation_details",
      "cancellation_requested_at",
      "retention_discount_cents",
      "retention_discount_at",
      "billing_synced_at",
    );
  });
}
