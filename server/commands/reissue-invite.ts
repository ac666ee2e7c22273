import { recordAudit } from "../audit/record-audit";
import { InviteTokens } from "../auth/invite-tokens";
import { rememberSpentInvite } from "../auth/spent-invite-tokens";
import type { Services } from "../context";
import { revokeReplyAddresses } from "../inbound/reply-address";
import { Client, type User } from "../models";
import { endSessionsOf } from "./end-sessions";

/**
 * Gives the client a new invite token; the old link stops working at once. Also for a joined
 * client, whose new link signs them back in (e.g. on a new phone). The replaced token is
 * remembered, so that opening it says "already used" rather than "invalid".
 *
 * It is also the owner's way to cut off a leaked link or a lost phone: a joined client's
 * sessions all end (their push subscriptions go with them) and, once committed, their open
 * sockets close on every instance, as at sign-out; the client's reply-by-email addresses are
 * revoked (server/inbound/reply-address.ts). The client comes back with the new link.
 */
export async function reissueInvite(
  services: Services,
  actor: User,
  client: Client,
): Promise<string> {
  const invite = new InviteTokens(services.config.sessionSecret).issue(client.id);
  const now = services.clock.now();
  const ended = await services.db.transaction(async (trx) => {
    const current = await Client.query(trx)
      .select("inviteTokenHash", "userId")
      .findById(client.id)
      .forUpdate();
    if (current?.inviteTokenHash) {
      await rememberSpentInvite(trx, client.id, current.inviteTokenHash, now);
    }
    await Client.query(trx)
      .patch({
        inviteTokenHash: invite.hash,
        inviteTokenEncrypted: invite.encrypted,
        inviteIssuedAt: now,
      })
      .where("id", client.id);
    await recordAudit(services, trx, {
      workspaceId: client.ownerId,
      actor,
      action: "client.invite_reissued",
      subject: { type: "client", id: client.id, label: client.name },
    });
    if (!current?.userId) return null;
    // The client's reply-by-email addresses stop too; their next mail carries a new one.
    await revokeReplyAddresses(trx, client.id, current.userId, now);
    return await endSessionsOf(services, trx, current.userId);
  });
  if (ended) services.events.dispatch(ended);
  return invite.token;
}
