import type { Knex } from "knex";

/**
 * Issue 26, notifications of a team: the read mark and the unanswered-message email of a
 * conversation belong to a person, not to a side. The staff's emails go to the client's
 * assigned members (each with their own delay and read mark), and the client's side will have
 * several contacts, so a row is keyed (client_id, recipient_user_id); `recipient_role` stays,
 * saying which side the person reads from. Existing rows become their person's: the owner's
 * side's the workspace owner's (`clients.owner_id`), the client's side's the client user's; a
 * client row without a user (never joined: it holds nothing) goes.
 *
 * Someone who leaves a workspace (removed, or joining another) already leaves its assignments
 * (trigger of 20261129050000); now also their reply addresses in its conversations, which stop
 * working at once, refused like an unknown address. Their read marks stay (they did read, and
 * the side's "Seen" is its furthest reader's); the sweep emails only current recipients.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table notification_states
      add column recipient_user_id uuid references users (id) on delete cascade`);
  await knex.raw(`
    update notification_states ns
       set recipient_user_id = case when ns.recipient_role = 'owner' then c.owner_id else c.user_id end
      from clients c
     where c.id = ns.client_id`);
  await knex.raw("delete from notification_states where recipient_user_id is null");
  await knex.raw(`
    alter table notification_states
      alter column recipient_user_id set not null,
      drop constraint notification_states_pkey,
      add constraint notification_states_pkey primary key (client_id, recipient_user_id)`);
  // Deleting a person deletes their marks (the cascade looks them up by user).
  await knex.raw(
    "create index notification_states_recipient_user_id on notification_states (recipient_user_id)",
  );
  await knex.raw(`
    create or replace function leave_assignments_with_workspace() returns trigger
      language plpgsql
      as $$
      begin
        delete from client_assignees where user_id = new.id;
        update reply_addresses r set revoked_at = now() from clients c
         where r.user_id = new.id and r.revoked_at is null and c.id = r.client_id
           and c.owner_id = old.workspace_id;
        return null;
      end
      $$`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    create or replace function leave_assignments_with_workspace() returns trigger
      language plpgsql
      as $$
      begin
        delete from client_assignees where user_id = new.id;
        return null;
      end
      $$`);
  // Back to one row per side: the furthest read of the side survives.
  await knex.raw(`
    delete from notification_states ns
     using notification_states other
     where other.client_id = ns.client_id and other.recipient_role = ns.recipient_role
       and (other.last_read_seq, other.recipient_user_id) > (ns.last_read_seq, ns.recipient_user_id)`);
  await knex.raw(`
    alter table notification_states
      drop constraint notification_states_pkey,
      add constraint notification_states_pkey primary key (client_id, recipient_role)`);
  await knex.raw("drop index if exists notification_states_recipient_user_id");
  await knex.raw("alter table notification_states drop column recipient_user_id");
}
