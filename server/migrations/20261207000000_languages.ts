import type { Knex } from "knex";

/**
 * Issue 29: each person's language (docs/decisions.md, "Languages").
 * - `users.language`: the language a person picked (staff in settings, a contact in the
 *   portal); null until they pick one.
 * - `users.workspace_language` (on the workspace's owner, whose id is the workspace): the
 *   language new clients are invited in.
 * - `clients.language`: the language this client's invites, portal and emails use until a
 *   contact picks one; null follows the workspace's.
 */
const LANGUAGES = "('en', 'de', 'fr', 'es', 'pt-BR')";

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    alter table users
      add column language text constraint users_language check (language in ${LANGUAGES}),
      add column workspace_language text not null default 'en'
        constraint users_workspace_language check (workspace_language in ${LANGUAGES})`);
  await knex.raw(`
    alter table clients
      add column language text constraint clients_language check (language in ${LANGUAGES})`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("alter table clients drop column if exists language");
  await knex.raw(
    "alter table users drop column if exists workspace_language, drop column if exists language",
  );
}
