import type { MailMessage } from "./mail-message";

/** Marks every mail the product sends, so that a copy of it coming back is never posted. */
export const PRODUCT_MAIL_HEADER = "X-ClientDesk-Mail";

/**
 * The headers of every mail the product sends: Auto-Submitted (RFC 3834) so that vacation
 * responders do not answer, X-Auto-Response-Suppress for Exchange/Outlook's, and the product's
 * own mark, which the inbound listener drops (no mail of ours loops back into a conversation).
 */
export const OUTGOING_HEADERS: Readonly<Record<string, string>> = {
  "Auto-Submitted": "auto-generated",
  "X-Auto-Response-Suppress": "All",
  [PRODUCT_MAIL_HEADER]: "1",
};

/** What nodemailer gets for `message`: its fields without devHint, and the product's headers. */
export function outgoingMail(message: MailMessage) {
  const { devHint: _hint, headers, ...mail } = message;
  return { ...mail, headers: { ...headers, ...OUTGOING_HEADERS } };
}
