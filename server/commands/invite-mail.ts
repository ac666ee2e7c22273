import { inviteUrl } from "../auth/invite-tokens";
import { withFeatures } from "../billing/feature-tier";
import type { Services } from "../context";
import { brandingFor } from "../mail/branding";
import { inviteMail, ownerDisplayName } from "../mail/client-mails";
import type { MailMessage } from "../mail/mail-message";
import type { User } from "../models";

/** The email that carries a client's invite link, in the owner's branding. */
export async function inviteMailFor(
  services: Services,
  owner: User,
  client: { name: string; email: string },
  token: string,
): Promise<MailMessage> {
  return inviteMail(client.email, {
    clientName: client.name,
    ownerName: ownerDisplayName(owner),
    url: inviteUrl(services.config.appUrl, token),
    portalUrl: `${services.config.appUrl}/client`,
    branding: await brandingFor(services.storage, withFeatures(services.config, owner), (error) =>
      services.logger.warn({ err: error, ownerId: owner.id }, "owner logo unreadable"),
    ),
  });
}
