import { inviteUrl } from "../auth/invite-tokens";
import { withFeatures } from "../billing/feature-tier";
import type { Services } from "../context";
import { brandingFor } from "../mail/branding";
import { inviteMail, ownerDisplayName } from "../mail/client-mails";
import type { Client, User } from "../models";

/** Emails the invite link to the client; false (and a log line) when the mail could not go out. */
export async function sendInviteMail(
  services: Services,
  owner: User,
  client: Client,
  token: string,
): Promise<boolean> {
  try {
    await services.mailer.send(
      inviteMail(client.email, {
        clientName: client.name,
        ownerName: ownerDisplayName(owner),
        url: inviteUrl(services.config.appUrl, token),
        portalUrl: `${services.config.appUrl}/client`,
        branding: await brandingFor(services.storage, withFeatures(services.config, owner), (error) =>
          services.logger.warn({ err: error, ownerId: owner.id }, "owner logo unreadable"),
        ),
      }),
    );
    return true;
  } catch (error) {
    services.logger.warn({ err: error, clientId: client.id }, "invite mail failed");
    return false;
  }
}
