import type { Knex } from "knex";

/**
 * Failed payments are emailed (issue 23): the grace end the owner was last reminded of, 4
 * hours before it, so that each grace period is reminded of once, by one instance.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.timestamp("payment_reminder_for", { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => t.dropColumn("payment_reminder_for"));
}
