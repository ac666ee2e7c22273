import type { Knex } from "knex";

/**
 * No takeover before verification (issue 23). A code is kept sealed (server/auth/sealed-tokens)
 * beside its hash, so that asking again re-sends the same code instead of killing the one the
 * address's owner already has; `resent_count` keeps re-sends within the hourly cap. A second
 * sign-up for an unverified address changes nothing of it but `sign_up_repeated_at`: from then
 * on its password is trusted only from the browser that typed it (docs/decisions.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("email_codes", (t) => {
    t.text("code_sealed");
    t.integer("resent_count").notNullable().defaultTo(0);
  });
  await knex.schema.alterTable("users", (t) => {
    t.timestamp("sign_up_repeated_at", { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => t.dropColumn("sign_up_repeated_at"));
  await knex.schema.alterTable("email_codes", (t) => {
    t.dropColumn("code_sealed");
    t.dropColumn("resent_count");
  });
}
