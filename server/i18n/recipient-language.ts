import type { Knex } from "knex";
import { DEFAULT_LANGUAGE, isLanguage, type Language } from "../../shared/i18n/languages";

/**
 * Whom an email is written for (issue 29): its recipient's language, never the sender's, and
 * the time zone its times are written in (null: UTC).
 *
 * - staff (owner, admin, member): their own language, else their workspace's;
 * - a client's person: their own language, else their client's, else the workspace's;
 * - someone not yet a user: an invite to a client follows that client, a team invite the
 *   workspace; sign-up and password mails the request that asked for them (requestLanguage).
 *
 * Batch mail jobs read the language in their own query with `recipientLanguageSql` (no query
 * per mail); a single mail reads it with `recipientOf`.
 */
export interface Recipient {
  language: Language;
  timeZone: string | null;
}

/** The first known language of `choices`, in order; English when none is. */
export function firstLanguage(...choices: (string | null | undefined)[]): Language {
  return choices.find(isLanguage) ?? DEFAULT_LANGUAGE;
}

/**
 * The rule on rows already read: the person, their client (a client's people only; null for
 * staff) and their workspace's owner (an owner is their own).
 */
export function recipientFrom(
  person: { language: Language | null; timeZone: string | null },
  client: { language: Language | null } | null,
  workspaceOwner: { workspaceLanguage: Language | null },
): Recipient {
  return {
    language: firstLanguage(person.language, client?.language, workspaceOwner.workspaceLanguage),
    timeZone: person.timeZone,
  };
}

/**
 * The rule as a SQL expression, for a query that joins the person (`person`, a users row),
 * the client of the conversation (`client`, may be null) and the workspace's owner (`owner`).
 * A client's language applies to that client's own people only, never to staff.
 */
export function recipientLanguageSql(person: string, client: string, owner: string): string {
  return `coalesce(${person}.language,
    case when ${person}.role = 'client' then ${client}.language end,
    ${owner}.workspace_language, '${DEFAULT_LANGUAGE}')`;
}

/** The language and time zone of one user (staff or a client's person); English and UTC when gone. */
export async function recipientOf(db: Knex, userId: string): Promise<Recipient> {
  const row: { language: string; timeZone: string | null } | undefined = await db("users as u")
    .leftJoin("clients as c", "c.id", "u.client_id")
    .leftJoin("users as o", "o.id", db.raw("coalesce(u.workspace_id, c.owner_id, u.id)"))
    .where("u.id", userId)
    .first(db.raw(`${recipientLanguageSql("u", "c", "o")} as language`), "u.time_zone as timeZone");
  return { language: firstLanguage(row?.language), timeZone: row?.timeZone ?? null };
}

/**
 * A client's own language (null: the workspace's), read from its row: the client cache's rows
 * (policies/clients.ts) do not carry it.
 */
export async function clientLanguageOf(db: Knex, clientId: string): Promise<Language | null> {
  const row: { language: Language | null } | undefined = await db("clients")
    .where("id", clientId)
    .first("language");
  return row?.language ?? null;
}

/** Someone invited to a client, not yet a user: the client's language, else the workspace's. */
export function inviteeLanguage(
  client: { language: Language | null } | null,
  workspaceOwner: { workspaceLanguage: Language | null },
): Language {
  return firstLanguage(client?.language, workspaceOwner.workspaceLanguage);
}

/**
 * A sign-up, verification or password mail: the person's own language when they picked one,
 * else the language of the request that asked for the mail (they are the one at its keyboard).
 */
export function requesterLanguage(
  person: { language: Language | null } | undefined,
  requestLanguage: Language,
): Language {
  return firstLanguage(person?.language, requestLanguage);
}
