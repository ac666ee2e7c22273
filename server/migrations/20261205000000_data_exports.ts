import type { Knex } from "knex";

/**
 * Issue 28, point 4: exports too large to stream at once (EXPORT_INLINE_MAX_BYTES) are built
 * by the `data-exports` job and mailed as a link.
 * - `status`: queued (asked for), building (a job holds it until `lease_until`), ready (the ZIP
 *   is stored under `stored_name`; the link's token hash opens it until `expires_at`), expired
 *   (bytes removed), failed (given up after 3 attempts).
 * - `client_id` null: the whole workspace of `workspace_id`; `requested_by`'s role says which
 *   side's export it is (a contact's leaves internal notes out).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("data_exports", (t) => {
    t.uuid("id").primary().defaultTo(knex.raw("gen_random_uuid()"));
    t.uuid("requested_by").notNullable().references("users.id").onDelete("CASCADE").index();
    t.uuid("workspace_id").notNullable();
    t.uuid("client_id").references("clients.id").onDelete("CASCADE");
    t.string("status", 16).notNullable().defaultTo("queued");
    t.integer("attempts").notNullable().defaultTo(0);
    t.timestamp("lease_until", { useTz: true });
    t.string("stored_name", 120).unique();
    t.string("file_name", 200).notNullable();
    t.bigInteger("size_bytes");
    t.string("token_hash", 64).unique();
    t.timestamp("expires_at", { useTz: true });
    t.timestamp("created_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(["status", "created_at"]);
  });
  await knex.raw(
    "alter table data_exports add constraint data_exports_status check (status in ('queued', 'building', 'ready', 'expired', 'failed'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("data_exports");
}
