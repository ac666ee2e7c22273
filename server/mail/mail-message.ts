/** One email as the product writes it, before a transport (SMTP or the dev mailbox) sends it. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Said in the dev mailbox's log line (e.g. the code), so a developer can go on without mail. */
  devHint?: string;
  /** Inline images named by `cid:` in the HTML (an agency owner's logo). */
  attachments?: MailAttachment[];
  /** Where answers go: a reply-by-email address (server/inbound) on mails about a conversation. */
  replyTo?: string;
  /** More headers; the product's own (mail/outgoing-headers.ts) are always added. */
  headers?: Record<string, string>;
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  cid: string;
}
