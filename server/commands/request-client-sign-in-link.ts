import { CODE_LIFETIME_MS } from "../auth/email-codes";
import { clientSignInUrl, newSignInLinkToken } from "../auth/invite-tokens";
import { withFeatures } from "../billing/feature-tier";
import type { Services } from "../context";
import { type BrandingOwner, brandingFor } from "../mail/branding";
import { clientSignInLinkMail, ownerDisplayName } from "../mail/client-mails";
import { EmailCode } from "../models";
import { sendWithRetries } from "../mail/send-with-retries";

/**
 * Queues the sign-in links of this address, looked up, made and mailed after the answer, so
 * that the answer and the time it takes are the same whether or not the address is a client's.
 */
export function requestClientSignInLink(services: Services, email: string): void {
  services.afterAnswer.add("client sign-in link mail", () => sendClientSignInLinks(services, email));
}

/**
 * Mails a sign-in link for each joined conversation of this address (one mail per
 * conversation, naming its owner). A new link replaces the earlier one of that client user.
 * Nothing for addresses that have none.
 */
export async function sendClientSignInLinks(services: Services, email: string): Promise<void> {
  const { db, clock, config, mailer, logger } = services;
  const conversations: ({ userId: string; clientId: string } & BrandingOwner)[] = await db("clients")
    .join("users as member", "member.id", "clients.userId")
    .join("users as owner", "owner.id", "clients.ownerId")
    .where({ "clients.email": email, "member.role": "client" })
    .whereNotNull("clients.joinedAt")
    .select(
      "clients.userId",
      "clients.id as clientId",
      "owner.fullName",
      "owner.companyName",
      "owner.accountTier",
      "owner.companyLogo",
      "owner.primaryColor",
      "owner.backgroundColor",
      "owner.textColor",
    );
  if (conversations.length === 0) return;
  const now = clock.now();
  const links = await db.transaction(async (trx) => {
    const made: { owner: BrandingOwner; token: string; clientId: string }[] = [];
    for (const { userId, clientId, ...owner } of conversations) {
      await EmailCode.query(trx)
        .patch({ usedAt: now })
        .where({ userId, purpose: "sign_in_link" })
        .whereNull("usedAt");
      const { token, hash } = newSignInLinkToken();
      await EmailCode.query(trx).insert({
        userId,
        purpose: "sign_in_link",
        codeHash: hash,
        expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS.sign_in_link),
        createdAt: now,
      });
      made.push({ owner, token, clientId });
    }
    return made;
  });
  await Promise.all(
    links.map(async (link) => {
      try {
        const branding = await brandingFor(services.storage, withFeatures(services.config, link.owner), (error) =>
          logger.warn({ err: error }, "owner logo unreadable"),
        );
        const mail = clientSignInLinkMail(email, {
          ownerName: ownerDisplayName(link.owner),
          url: clientSignInUrl(config.appUrl, link.token, link.clientId),
          branding,
        });
        await sendWithRetries(mailer, mail);
      } catch (error) {
        logger.warn({ err: error }, "sign-in link mail failed");
      }
    }),
  );
}
