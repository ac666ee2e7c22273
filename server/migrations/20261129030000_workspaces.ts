import type { Knex } from "knex";

/**
 * Issue 26: an owner's account becomes a workspace. Every owner-side user belongs to one
 * (`workspace_id`: the user id of the workspace's owner, who holds its plan, billing and
 * branding) with one role (`team_role`: owner, admin or member). Existing owners become the
 * owner of a workspace of one, with no visible change; a trigger does the same for an owner
 * inserted without one (sign-up, Google), so a row can never be owner-side and in no workspace.
 * Client users have neither.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("users", (t) => {
    t.uuid("workspace_id").references("users.id").onDelete("CASCADE").index();
    t.string("team_role", 10).checkIn(["owner", "admin", "member"]);
  });
  await knex.raw("update users set workspace_id = id, team_role = 'owner' where role = 'owner'");
  await knex.raw(`
    create function owner_in_a_workspace() returns trigger
      language plpgsql
      as $$
      begin
        if new.role = 'owner' and new.workspace_id is null then
          new.workspace_id := new.id;
          new.team_role := 'owner';
        end if;
        return new;
      end
      $$`);
  await knex.raw(`
    create trigger users_owner_in_a_workspace
      before insert on users
      for each row execute function owner_in_a_workspace()`);
  await knex.raw(`
    alter table users add constraint users_workspace_by_side check (
      (role = 'owner') = (workspace_id is not null and team_role is not null)
    )`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table users drop constraint users_workspace_by_side");
  await knex.raw("drop trigger users_owner_in_a_workspace on users");
  await knex.raw("drop function owner_in_a_workspace()");
  await knex.schema.alterTable("users", (t) => {
    t.dropColumn("team_role");
    t.dropColumn("workspace_id");
  });
}
