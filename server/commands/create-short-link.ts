import type { Knex } from "knex";
import { InviteTokens, newShortCode } from "../auth/invite-tokens";
import type { Services } from "../context";
import { conflict } from "../errors";
import { type Client, ShortLink } from "../models";
import { msg } from "../../shared/i18n/msg";

/**
 * The client's short code, made on first use: one per client, and it resolves to whatever
 * invite token is live when it is opened, so re-issuing the invite does not change it.
 */
export async function ensureShortLink(trx: Knex.Transaction, clientId: string): Promise<string> {
  const existing = await ShortLink.query(trx).findOne({ clientId });
  if (existing) return existing.code;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    // Do nothing on a taken code (try another) or a short link made meanwhile (use it).
    const inserted = await trx("shortLinks")
      .insert({ code: newShortCode(), clientId })
      .onConflict()
      .ignore()
      .returning("code");
    if (inserted[0]) return inserted[0].code as string;
    const raced = await ShortLink.query(trx).findOne({ clientId });
    if (raced) return raced.code;
  }
  throw new Error("Could not find a free short code");
}

/** The short code and the live token it stands for; 409 when the client has no live invite. */
export async function createShortLink(
  services: Services,
  client: Client,
): Promise<{ code: string; token: string }> {
  const token = new InviteTokens(services.config.sessionSecret).reveal(
    client.id,
    client.inviteTokenEncrypted,
  );
  if (!token) {
    // Chosen outside conflict(): the extractor reads msg() texts, not arguments of arguments.
    const why = client.joinedAt
      ? msg("This client has already joined. Create a new invite link for them first.")
      : msg("This client has no invite link that can be shown. Create a new invite link first.");
    throw conflict(why);
  }
  const code = await services.db.transaction((trx) => ensureShortLink(trx, client.id));
  return { code, token };
}
