import { CODE_LIFETIME_MS } from "../auth/email-codes";
import { clientSignInUrl, newSignInLinkToken } from "../auth/invite-tokens";
import { withFeatures } from "../billing/feature-tier";
import type { Services } from "../context";
import type { Language } from "../../shared/i18n/languages";
import { firstLanguage, recipientLanguageSql } from "../i18n/recipient-language";
import { type BrandingOwner, brandingFor } from "../mail/branding";
import { clientSignInLinkMail, ownerDisplayName } from "../mail/client-mails";
import { EmailCode } from "../models";

/**
 * Queues the sign-in links of this address, looked up, made and mailed after the answer, so
 * that the answer and the time it takes are the same whether or not the address is a client's.
 */
export function requestClientSignInLink(services: Services, email: string): void {
  services.afterAnswer.add("client sign-in link mail", () =>
    sendClientSignInLinks(services, email),
  );
}

/**
 * Mails a sign-in link for each joined conversation of this address (one mail per
 * conversation, naming its owner). A new link replaces the earlier one of that client user.
 * Nothing for addresses that have none.
 */
export async function sendClientSignInLinks(services: Services, email: string): Promise<void> {
  const { db, clock, config, logger } = services;
  const conversations: ({
    userId: string;
    clientId: string;
    language: Language;
  } & BrandingOwner)[] = await db("clients")
    // Every contact who joined (issue 26) has a user naming the client, under their address.
    .join("users as member", "member.clientId", "clients.id")
    .join("users as owner", "owner.id", "clients.ownerId")
    .where({ "member.email": email, "member.role": "client" })
    // Not a deleted client's (issue 28), until it is restored.
    .whereNull("clients.deletedAt")
    .select(
      "member.id as userId",
      "clients.id as clientId",
      "owner.fullName",
      "owner.companyName",
      "owner.accountTier",
      "owner.companyLogo",
      "owner.primaryColor",
      "owner.backgroundColor",
      "owner.textColor",
      // Each mail in the language of the person it signs in (their own, their client's...).
      db.raw(`${recipientLanguageSql("member", "clients", "owner")} as language`),
    );
  if (conversations.length === 0) return;
  // The mails are written before the transaction: reading a logo must not hold it open.
  const made = await Promise.all(
    conversations.map(async ({ userId, clientId, language, ...owner }) => {
      const { token, hash } = newSignInLinkToken();
      const branding = await brandingFor(services.storage, withFeatures(config, owner), (error) =>
        logger.warn({ err: error }, "owner logo unreadable"),
      );
      const mail = clientSignInLinkMail(email, {
        language: firstLanguage(language),
        ownerName: ownerDisplayName(owner),
        url: clientSignInUrl(config.appUrl, token, clientId),
        branding,
      });
      return { userId, hash, mail };
    }),
  );
  const now = clock.now();
  await db.transaction(async (trx) => {
    for (const { userId, hash, mail } of made) {
      await EmailCode.query(trx)
        .patch({ usedAt: now })
        .where({ userId, purpose: "sign_in_link" })
        .whereNull("usedAt");
      await EmailCode.query(trx).insert({
        userId,
        purpose: "sign_in_link",
        codeHash: hash,
        expiresAt: new Date(now.getTime() + CODE_LIFETIME_MS.sign_in_link),
        createdAt: now,
      });
      await services.outbox.enqueue(trx, mail, "client-sign-in-link");
    }
  });
}
