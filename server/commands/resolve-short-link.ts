import { InviteTokens, isWellFormedShortCode } from "../auth/invite-tokens";
import type { Services } from "../context";
import { notFound } from "../errors";
import { Client } from "../models";
import { INVALID_INVITE } from "./accept-invite";

/** The invite token a short code stands for now; 404 for an unknown code or a dead invite. */
export async function resolveShortLink(services: Services, code: string): Promise<string> {
  const client = isWellFormedShortCode(code)
    ? await Client.query(services.db)
        .select("clients.id", "clients.inviteTokenEncrypted")
        .join("shortLinks", "shortLinks.clientId", "clients.id")
        .findOne("shortLinks.code", code)
    : undefined;
  const token = client
    ? new InviteTokens(services.config.sessionSecret).reveal(client.id, client.inviteTokenEncrypted)
    : null;
  if (!token) throw notFound(INVALID_INVITE);
  return token;
}
