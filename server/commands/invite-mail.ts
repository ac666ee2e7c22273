import { inviteUrl } from "../auth/invite-tokens";
import { withFeatures } from "../billing/feature-tier";
import type { Services } from "../context";
import { inviteeLanguage } from "../i18n/recipient-language";
import { brandingFor } from "../mail/branding";
import { inviteMail, ownerDisplayName } from "../mail/client-mails";
import type { MailMessage } from "../mail/mail-message";
import type { User } from "../models";
import type { Language } from "../../shared/i18n/languages";

/**
 * The email that carries a client's invite link, in the owner's branding and in the client's
 * language (`language`; null: the workspace's).
 */
export async function inviteMailFor(
  services: Services,
  owner: User,
  client: { name: string; email: string; language: Language | null },
  token: string,
): Promise<MailMessage> {
  return inviteMail(client.email, {
    language: inviteeLanguage(client, owner),
    clientName: client.name,
    ownerName: ownerDisplayName(owner),
    url: inviteUrl(services.config.appUrl, token),
    portalUrl: `${services.config.appUrl}/client`,
    branding: await brandingFor(services.storage, withFeatures(services.config, owner), (error) =>
      services.logger.warn({ err: error, ownerId: owner.id }, "owner logo unreadable"),
    ),
  });
}
