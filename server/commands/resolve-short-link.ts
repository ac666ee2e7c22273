import { InviteTokens, isWellFormedShortCode } from "../auth/invite-tokens";
import type { Services } from "../context";
import { notFound } from "../errors";
import { Client } from "../models";
import { INVALID_INVITE, usedInvite } from "./accept-invite";

/**
 * The invite token a short code stands for now; 404 for an unknown code, 410 "used" for a
 * code whose invite was used (the client joined) so the portal can offer a sign-in link.
 */
export async function resolveShortLink(services: Services, code: string): Promise<string> {
  const client = isWellFormedShortCode(code)
    ? await Client.live(services.db)
        .select("clients.id", "clients.inviteTokenEncrypted")
        .join("shortLinks", "shortLinks.clientId", "clients.id")
        .findOne("shortLinks.code", code)
    : undefined;
  const token = client
    ? new InviteTokens(services.config.sessionSecret).reveal(client.id, client.inviteTokenEncrypted)
    : null;
  if (!client) throw notFound(INVALID_INVITE);
  // No live token: the invite was used. A token that is there but cannot be read (a changed
  // SESSION_SECRET) is not "used": the link is as good as unknown.
  if (client.inviteTokenEncrypted === null) throw usedInvite();
  if (!token) throw notFound(INVALID_INVITE);
  return token;
}
