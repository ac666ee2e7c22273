import { InviteTokens } from "../auth/invite-tokens";
import type { Services } from "../context";
import { Client } from "../models";

/**
 * Gives the client a new invite token; the old link stops working at once. Also for a joined
 * client, whose new link signs them back in (e.g. after their session ended).
 */
export async function reissueInvite(services: Services, client: Client): Promise<string> {
  const invite = new InviteTokens(services.config.sessionSecret).issue(client.id);
  await Client.query(services.db)
    .patch({
      inviteTokenHash: invite.hash,
      inviteTokenEncrypted: invite.encrypted,
      inviteIssuedAt: services.clock.now(),
    })
    .where("id", client.id);
  return invite.token;
}
