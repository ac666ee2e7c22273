import type { Knex } from "knex";
import { DEFAULT_LANGUAGE, type Language } from "../../shared/i18n/languages";
import type { User } from "../models";

/**
 * The language a person reads until they pick one (issue 29): a contact's client's invite
 * language, else the workspace's. The session read brings it along (auth/session-store.ts);
 * a user read another way (just signed in) costs this one query.
 */
export async function defaultLanguageOf(db: Knex, user: User): Promise<Language> {
  if (user.defaultLanguage) return user.defaultLanguage;
  const workspaceId = user.workspaceId ?? user.id;
  const row: { language: Language | null } | undefined =
    user.role === "client" && user.clientId
      ? await db("clients")
          .join("users", "users.id", "clients.ownerId")
          .where("clients.id", user.clientId)
          .first(db.raw("coalesce(clients.language, users.workspace_language) as language"))
      : await db("users").where("id", workspaceId).first("workspaceLanguage as language");
  return row?.language ?? DEFAULT_LANGUAGE;
}
