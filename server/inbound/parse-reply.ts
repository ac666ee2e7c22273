import type { Readable } from "node:stream";
import EmailReplyParser from "email-reply-parser";
import { convert } from "html-to-text";
import { type ParsedMail, simpleParser } from "mailparser";
import { PRODUCT_MAIL_HEADER } from "../mail/outgoing-headers";
import { cutAtHeaderBlock, withoutTrailingAttribution } from "./quote-headers";
import { headerValues, soleFromAddress } from "./sender-authentication";
import { normalizeTextParts } from "./text-parts";

/** A file sent with a reply, before the upload checks. */
export interface ReplyAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** What the product takes from a received reply. */
export interface ParsedReply {
  messageId: string | null;
  /** The header From's address, lower-cased; null unless one From header names one address. */
  from: string | null;
  /** Every Authentication-Results header, as written (sender-authentication.ts reads them). */
  authenticationResults: string[];
  /** Why this mail is not a person's answer (an auto-reply, our own mail), or null. */
  automatic: string | null;
  /** The new text: quoted history and signature removed, trimmed (may be empty). */
  text: string;
  /** Attached files; images embedded in the HTML (multipart/related) are left out. */
  attachments: ReplyAttachment[];
}

/** The top border colours of Outlook's, Windows Mail's and BlackBerry's quoted header block. */
const HEADER_BORDER = String.raw`(?:#(?:B5C4DF|E1E1E1|E5E5E5)|rgb\(\s*(?:181,\s*196,\s*223|225,\s*225,\s*225|229,\s*229,\s*229)\s*\))`;

/**
 * Where the quoted history (or a signature block) starts in HTML-only replies: Gmail's
 * gmail_quote and gmail_signature, Yahoo's yahoo_quoted, Apple Mail's and Thunderbird's cite
 * blockquote and prefix, Outlook's and OWA's divider and header block, and the header block's
 * top border however it is written (Outlook's "border-top:solid #E1E1E1", BlackBerry's and
 * Windows Mail's "border-top-color: rgb(…)"). What follows the first of them is dropped
 * before the HTML becomes text.
 */
const HTML_QUOTE_STARTS = [
  /<div[^>]+class=["'][^"']*gmail_quote/i,
  /<(?:div|span)[^>]+class=["'][^"']*gmail_signature/i,
  /<div[^>]+class=["'][^"']*yahoo_quoted/i,
  /<blockquote[^>]+type=["']?cite/i,
  /<div[^>]+class=["'][^"']*moz-cite-prefix/i,
  /<div[^>]+id=["']?appendonsend/i,
  /<div[^>]+id=["']?divRplyFwdMsg/i,
  /<hr[^>]+tabindex=["']?-1/i,
  /<hr[^>]+id=["']?stopSpelling/i,
  /<div[^>]+class=["'][^"']*OutlookMessageHeader/i,
  new RegExp(
    String.raw`<div[^>]+style=["'][^"']*border-top:\s*(?:[\d.]+pt\s+)?solid\s+${HEADER_BORDER}`,
    "i",
  ),
  new RegExp(String.raw`<div[^>]+style=["'][^"']*border-top-color:\s*${HEADER_BORDER}`, "i"),
];

/** Signature separators the reply parser does not know, and what phones add. */
const SIGNATURE_LINES = [
  /^-- ?$/,
  /^__+$/,
  /^Sent from (?:my )?(?:iPhone|iPad|Android|Mail for Windows|Outlook|Samsung|BlackBerry|mobile)/i,
  /^(?:Get|Download) Outlook for /i,
];

const AUTO_SUBJECTS =
  /^(?:auto(?:matic)?[ -]?(?:reply|response|answer)|out of (?:the )?office|autoreply|auto:|abwesenheitsnotiz|réponse automatique)/i;
const BULK_PRECEDENCE = /^(?:bulk|junk|list|auto_reply)$/i;

const replyParser = new EmailReplyParser();

/** Reads a received mail (at most the SMTP size limit) into what a reply posts. */
export async function parseReply(source: Buffer | Readable): Promise<ParsedReply> {
  const mail = await simpleParser(await normalizeTextParts(await bytesOf(source)), {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
  });
  return {
    messageId: mail.messageId?.trim() || null,
    from: soleFromAddress(mail),
    authenticationResults: headerValues(mail, "Authentication-Results"),
    automatic: automaticReason(mail),
    text: newText(mail),
    attachments: mail.attachments
      .filter((attachment) => !attachment.related && attachment.contentType !== "message/rfc822")
      .map((attachment) => ({
        filename: attachment.filename ?? "attachment",
        contentType: attachment.contentType,
        content: attachment.content,
      })),
  };
}

async function bytesOf(source: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(source)) return source;
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The value of header `name` as written (mailparser structures some headers). */
function header(mail: ParsedMail, name: string): string | null {
  const prefix = `${name.toLowerCase()}:`;
  const line = mail.headerLines.find((entry) => entry.line.toLowerCase().startsWith(prefix));
  return line ? line.line.slice(prefix.length).trim() : null;
}

/**
 * Why a mail is automatic (RFC 3834 Auto-Submitted other than "no", the X-Autoreply family,
 * bulk precedence, an out-of-office subject, a delivery report, or the product's own mail).
 */
export function automaticReason(mail: ParsedMail): string | null {
  if (header(mail, PRODUCT_MAIL_HEADER) !== null) return "the product's own mail";
  const submitted = header(mail, "Auto-Submitted");
  if (submitted && submitted.split(";")[0]!.trim().toLowerCase() !== "no") {
    return `Auto-Submitted: ${submitted}`;
  }
  for (const name of ["X-Autoreply", "X-Autorespond", "X-Autoresponder", "X-Auto-Reply"]) {
    if (header(mail, name) !== null) return name;
  }
  for (const name of ["Precedence", "X-Precedence"]) {
    const value = header(mail, name);
    if (value && BULK_PRECEDENCE.test(value)) return `${name}: ${value}`;
  }
  if (AUTO_SUBJECTS.test(mail.subject?.trim() ?? "")) return "out-of-office subject";
  const type = header(mail, "Content-Type");
  if (type && /^multipart\/report/i.test(type)) return "delivery report";
  return null;
}

/** The text the person wrote: the plain part, else the HTML's up to its quoted history. */
function newText(mail: ParsedMail): string {
  let text = typeof mail.text === "string" ? mail.text : "";
  if (!text.trim() && typeof mail.html === "string") text = htmlToText(cutQuotedHtml(mail.html));
  return visibleText(text);
}

/** Quoted history, reply headers ("On … wrote:", Outlook's "From: … Sent:") and signature removed. */
export function visibleText(text: string): string {
  const normalized = text.replace(/\r\n?/g, "\n").replace(/\u00a0/g, " ");
  const unquoted = cutAtHeaderBlock(normalized.split("\n")).join("\n");
  const visible = replyParser.read(unquoted).getVisibleText();
  const lines = visible.split("\n");
  const cut = lines.findIndex((line) =>
    SIGNATURE_LINES.some((pattern) => pattern.test(line.trimEnd())),
  );
  const kept = withoutTrailingAttribution(cut === -1 ? lines : lines.slice(0, cut));
  return kept
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

export function cutQuotedHtml(html: string): string {
  let end = html.length;
  for (const pattern of HTML_QUOTE_STARTS) {
    const found = pattern.exec(html);
    if (found && found.index < end) end = found.index;
  }
  return html.slice(0, end);
}

/**
 * HTML as text, by the html-to-text that mailparser uses, with its options but for the line
 * length: a person's paragraphs stay whole (mailparser wraps them at 80 characters).
 */
function htmlToText(html: string): string {
  if (!html.trim()) return "";
  return convert(html, { wordwrap: false });
}
