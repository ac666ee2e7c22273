import type { Knex } from "knex";

/**
 * Issue 26: invitations to a workspace. The token is only kept as its SHA-256; the link works
 * once (accepted_at), until expires_at, and dies when withdrawn (revoked_at) or reissued (a new
 * hash in the same row). One open invite per address and workspace, so a second invite to the
 * same address reissues the first.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("team_invites", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("workspace_id").notNullable().references("users.id").onDelete("CASCADE");
    // Lower-case, as the API's emailSchema gives it.
    t.string("email", 254).notNullable();
    t.string("role", 10).notNullable().checkIn(["admin", "member"]);
    t.string("token_hash", 64).notNullable().unique();
    t.uuid("invited_by").references("users.id").onDelete("SET NULL").index();
    t.timestamp("created_at", { useTz: true }).notNullable();
    t.timestamp("expires_at", { useTz: true }).notNullable();
    t.timestamp("accepted_at", { useTz: true });
    t.timestamp("revoked_at", { useTz: true });
  });
  await knex.raw(`
    create unique index team_invites_open_per_address on team_invites (workspace_id, email)
      where accepted_at is null and revoked_at is null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("team_invites");
}
