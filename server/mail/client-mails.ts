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
    clientName: string;
    ownerName: string;
    url: string;
    /** The portal's address without a link in it (/client): where a returning client starts. */
    portalUrl: string;
    branding: Branding;
  },
): MailMessage {
  return {
    to,
    attachments: details.branding.attachments,
    subject: `${details.ownerName} invited you to a conversation on ClientDesk`,
    devHint: `invite link ${details.url}`,
    ...renderMail({
      heading: `Hello ${details.clientName}`,
      paragraphs: [
        `${details.ownerName} invited you to a private conversation on ClientDesk, where you can exchange messages and files.`,
        "Open the link below to join. You do not need a password: the link signs you in. It works once, so keep this email to yourself.",
        `Bookmark the conversation once it is open. To come back later on any device, open ${details.portalUrl} and ask for a sign-in link: we email it to this address.`,
      ],
      action: { label: "Open the conversation", url: details.url },
      footer: `You received this because ${details.ownerName} added this address as a client. If you do not know them, ignore this email.`,
      brand: details.branding.brand,
    }),
  };
}

export function clientSignInLinkMail(
  to: string,
  details: { ownerName: string; url: string; branding: Branding },
): MailMessage {
  return {
    to,
    attachments: details.branding.attachments,
    subject: `Sign in to your conversation with ${details.ownerName}`,
    devHint: `sign-in link ${details.url}`,
    ...renderMail({
      heading: "Your sign-in link",
      paragraphs: [
        `Use this link to get back into your conversation with ${details.ownerName}. It works once and expires in 15 minutes.`,
      ],
      action: { label: "Sign in", url: details.url },
      footer:
        "You received this because someone asked for a sign-in link for this address. If it was not you, ignore this email.",
      brand: details.branding.brand,
    }),
  };
}
