import type { Knex } from "knex";

/**
 * Issue 26, assignment: the staff a client is assigned to (members see only those clients;
 * the owner and admins see every one), one of them its lead. A change announces `clients` on
 * the cached-rows channel, as a clients row's change does: the client cache keeps each
 * client's assignees with its row. Someone who leaves a workspace leaves its assignments.
 */
// Written out, not imported: a migration stays as it ran (server/db/cached-rows.ts names them).
const CHANNEL = "clientdesk_cached_rows";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("client_assignees", (t) => {
    t.uuid("client_id").notNullable().references("clients.id").onDelete("CASCADE");
    t.uuid("user_id").notNullable().references("users.id").onDelete("CASCADE").index();
    t.boolean("is_lead").notNullable().defaultTo(false);
    t.timestamp("assigned_at", { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(["client_id", "user_id"]);
  });
  await knex.raw(
    "create unique index client_assignees_one_lead on client_assignees (client_id) where is_lead",
  );
  await knex.raw(`
    create function announce_client_assignees_changed() returns trigger
      language plpgsql
      as $$
      begin
        perform pg_notify('${CHANNEL}', 'clients');
        return null;
      end
      $$`);
  await knex.raw(`
    create trigger client_assignees_changed_announced
      after insert or update or delete on client_assignees
      for each statement execute function announce_client_assignees_changed()`);
  await knex.raw(`
    create function leave_assignments_with_workspace() returns trigger
      language plpgsql
      as $$
      begin
        delete from client_assignees where user_id = new.id;
        return null;
      end
      $$`);
  await knex.raw(`
    create trigger users_left_workspace
      after update of workspace_id on users
      for each row when (old.workspace_id is distinct from new.workspace_id)
      execute function leave_assignments_with_workspace()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop trigger if exists users_left_workspace on users");
  await knex.raw("drop function if exists leave_assignments_with_workspace()");
  await knex.schema.dropTableIfExists("client_assignees");
  await knex.raw("drop function if exists announce_client_assignees_changed()");
}
