import type { Knex } from "knex";

/**
 * Issue 28, point 5: retention of deleted clients (docs/decisions.md, "Deleted clients and
 * retention").
 * - `users.deleted_client_retention_days` (on the workspace's owner, whose id is the workspace):
 *   how many days a deleted client is kept for a restore; 0 deletes at once, as before.
 * - `clients.deleted_at` / `deleted_by`: a client deleted while the workspace keeps them. Such a
 *   client is gone for everyone (queries take live clients only, `deleted_at is null`) until it
 *   is restored, or purged by the `deleted-clients-purge` job once its days have passed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table users
      add column deleted_client_retention_days integer not null default 0
        constraint users_deleted_client_retention_days
        check (deleted_client_retention_days between 0 and 365)`);
  await knex.schema.alterTable("clients", (t) => {
    t.timestamp("deleted_at", { useTz: true });
    t.uuid("deleted_by").references("users.id").onDelete("SET NULL");
  });
  // The purge job and the Deleted clients list read only the few deleted rows.
  await knex.raw(
    "create index clients_deleted_at on clients (deleted_at) where deleted_at is not null",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index if exists clients_deleted_at");
  await knex.schema.alterTable("clients", (t) => {
    t.dropColumn("deleted_by");
    t.dropColumn("deleted_at");
  });
  await knex.raw("alter table users drop column if exists deleted_client_retention_days");
}
