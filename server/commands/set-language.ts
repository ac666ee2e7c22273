import type { Knex } from "knex";
import type { Language } from "../../shared/i18n/languages";
import { Client, User } from "../models";

/**
 * Issue 29: who reads which language. Each write to users or clients empties the session
 * cache (auth/session-cache.ts), so the person's next request already reads the new one.
 * Not audited: a language changes what a page looks like, not who may do what.
 */

/** PATCH /api/user/language: the language the person picked (staff in settings, a contact in the portal). */
export async function setUserLanguage(
  db: Knex,
  actor: User,
  language: Language,
): Promise<Language> {
  await User.query(db).patch({ language }).where("id", actor.id);
  return language;
}

/** PATCH /api/workspace/language: the language the workspace's new clients are invited in. */
export async function setWorkspaceLanguage(
  db: Knex,
  actor: User,
  language: Language,
): Promise<Language> {
  await User.query(db)
    .patch({ workspaceLanguage: language })
    .where("id", actor.workspaceId ?? actor.id);
  return language;
}

/** PATCH /api/clients/{id}/language: the client's invite language (null: the workspace's). */
export async function setClientLanguage(
  db: Knex,
  client: Client,
  language: Language | null,
): Promise<Language | null> {
  await Client.query(db).patch({ language }).where("id", client.id);
  return language;
}
