import type { Knex } from "knex";

/**
 * Google sign-in in the desktop app (issue 14): the one-time code the server hands the app's
 * loopback listener after Google answered in the system browser. Only the code's hash is kept,
 * with the PKCE challenge the app's verifier must match; a row lives about two minutes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("desktop_sign_in_codes", (t) => {
    t.string("code_hash", 64).primary();
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE").index();
    t.string("code_challenge", 43).notNullable();
    t.timestamp("expires_at", { useTz: true }).notNullable().index();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("desktop_sign_in_codes");
}
