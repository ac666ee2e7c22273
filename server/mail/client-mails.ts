import type { Language } from "../../shared/i18n/languages";
import { translatorFor } from "../i18n/translator";
import type { Branding } from "./branding";
import { renderMail } from "./layout";
import type { MailMessage } from "./mail-message";

/** How an owner is named to their clients: "Olivia Owner (Ortega Studio)". */
export function ownerDisplayName(owner: { fullName: string; companyName: string | null }): string {
  return owner.companyName ? `${owner.fullName} (${owner.companyName})` : owner.fullName;
}

export function inviteMail(
  to: string,
  details: {
    /** The invitee's: their client's language, else the workspace's (recipient-language.ts). */
    language: Language;
    clientName: string;
    ownerName: string;
    url: string;
    /** The portal's address without a link in it (/client): where a returning client starts. */
    portalUrl: string;
    branding: Branding;
  },
): MailMessage {
  const t = translatorFor(details.language, "emails");
  const { ownerName } = details;
  return {
    to,
    attachments: details.branding.attachments,
    subject: t("{{ownerName}} invited you to a conversation on ClientDesk", { ownerName }),
    devHint: `invite link ${details.url}`,
    ...renderMail({
      heading: t("Hello {{clientName}}", { clientName: details.clientName }),
      paragraphs: [
        t(
          "{{ownerName}} invited you to a private conversation on ClientDesk, where you can exchange messages and files.",
          { ownerName },
        ),
        t(
          "Open the link below to join. You do not need a password: the link signs you in. It works once, so keep this email to yourself.",
        ),
        t(
          "Bookmark the conversation once it is open. To come back later on any device, open {{portalUrl}} and ask for a sign-in link: we email it to this address.",
          { portalUrl: details.portalUrl },
        ),
      ],
      action: { label: t("Open the conversation"), url: details.url },
      footer: t(
        "You received this because {{ownerName}} added this address as a client. If you do not know them, ignore this email.",
        { ownerName },
      ),
      brand: details.branding.brand,
    }),
  };
}

export function clientSignInLinkMail(
  to: string,
  details: { language: Language; ownerName: string; url: string; branding: Branding },
): MailMessage {
  const t = translatorFor(details.language, "emails");
  const { ownerName } = details;
  return {
    to,
    attachments: details.branding.attachments,
    subject: t("Sign in to your conversation with {{ownerName}}", { ownerName }),
    devHint: `sign-in link ${details.url}`,
    ...renderMail({
      heading: t("Your sign-in link"),
      paragraphs: [
        t(
          "Use this link to get back into your conversation with {{ownerName}}. It works once and expires in 15 minutes.",
          { ownerName },
        ),
      ],
      action: { label: t("Sign in"), url: details.url },
      footer: t(
        "You received this because someone asked for a sign-in link for this address. If it was not you, ignore this email.",
      ),
      brand: details.branding.brand,
    }),
  };
}
