import { InviteTokens } from "../auth/invite-tokens";
import { rememberSpentInvite } from "../auth/spent-invite-tokens";
import type { Services } from "../context";
import { revokeReplyAddresses } from "../inbound/reply-address";
import { Client } from "../models";

/**
 * Gives the client a new invite token; the old link stops working at once. Also for a joined
 * client, whose new link signs them back in (e.g. after their session ended). The replaced
 * token is remembered, so that opening it says "already used" rather than "invalid". The
 * client's reply-by-email addresses are revoked (server/inbound/reply-address.ts).
 */
export async function reissueInvite(services: Services, client: Client): Promise<string> {
  const invite = new InviteTokens(services.config.sessionSecret).issue(client.id);
  const now = services.clock.now();
  await services.db.transaction(async (trx) => {
    const current = await Client.query(trx)
      .select("inviteTokenHash", "userId")
      .findById(client.id)
      .forUpdate();
    if (current?.inviteTokenHash) {
      await rememberSpentInvite(trx, client.id, current.inviteTokenHash, now);
    }
    // The client's reply-by-email addresses stop too; their next mail carries a new one.
    if (current?.userId) await revokeReplyAddresses(trx, client.id, current.userId, now);
    await Client.query(trx)
      .patch({
        inviteTokenHash: invite.hash,
        inviteTokenEncrypted: invite.encrypted,
        inviteIssuedAt: now,
      })
      .where("id", client.id);
  });
  return invite.token;
}
