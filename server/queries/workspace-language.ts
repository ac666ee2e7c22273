import type { Knex } from "knex";
import { DEFAULT_LANGUAGE, type Language } from "../../shared/i18n/languages";
import { User } from "../models";

/** The language `actor`'s workspace invites new clients in (its owner's row, issue 29). */
export async function workspaceLanguageOf(db: Knex, actor: User): Promise<Language> {
  const owner = await User.query(db)
    .select("workspaceLanguage")
    .findById(actor.workspaceId ?? actor.id);
  return owner?.workspaceLanguage ?? DEFAULT_LANGUAGE;
}
