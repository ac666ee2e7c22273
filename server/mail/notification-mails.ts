import type { Language } from "../../shared/i18n/languages";
import type { Role } from "../../shared/schemas/user";
import { type Translate, translatorFor } from "../i18n/translator";
import type { Branding } from "./branding";
import { type MailQuote, renderMail } from "./layout";
import type { MailMessage } from "./mail-message";

/** The two buttons of one file in an email. */
export interface DecisionLinks {
  approveUrl: string;
  needsWorkUrl: string;
}

/** At most this many waiting messages are quoted; the mail says how many there are in all. */
export const QUOTED_MESSAGES = 10;
const QUOTE_CHARS = 1_000;

export interface WaitingMessage {
  /** Text, or null for a file message. */
  content: string | null;
  fileName: string | null;
  /** An owner's file that waits for the client's decision: its Approve and Needs Work links. */
  decisionLinks?: DecisionLinks;
  /** That file's open review marks (issue 27), listed under it. */
  openMarks?: OpenMark[];
}

/** An open review mark as an email lists it: its number on the version, its page, its words. */
export interface OpenMark {
  number: number;
  page: number;
  comment: string;
}

/** At most this many open marks are listed under a file; the list says how many more. */
export const LISTED_MARKS = 10;

/** A file's open marks as the email lists them: "Mark 2, page 3: Logo too small". */
export function openMarksList(t: Translate, marks: readonly OpenMark[]): MailQuote["list"] {
  if (marks.length === 0) return undefined;
  const listed = marks.slice(0, LISTED_MARKS).map((mark) => {
    const words = mark.comment.length > 200 ? `${mark.comment.slice(0, 200)}…` : mark.comment;
    return t("Mark {{number}}, page {{page}}: {{words}}", {
      number: mark.number,
      page: mark.page,
      words: words.replace(/\s+/g, " "),
    });
  });
  const more = marks.length - listed.length;
  return {
    heading: t("{{count}} open marks on this file:", { count: marks.length }),
    items: more > 0 ? [...listed, t("and {{count}} more", { count: more })] : listed,
  };
}

/** A file's Approve and Needs Work buttons, under its quote (this email and the due reminder). */
export function approvalButtons(
  t: Translate,
  links: DecisionLinks,
  fileName: string,
): Pick<MailQuote, "buttonsIntro" | "buttons"> {
  return {
    buttonsIntro: t(
      "This file waits for your approval. Each button opens a page where you confirm.",
    ),
    buttons: [
      { label: t("Approve"), url: links.approveUrl, name: fileName },
      { label: t("Needs Work"), url: links.needsWorkUrl, name: fileName },
    ],
  };
}

export interface UnansweredMessagesMail {
  to: string;
  /** The recipient's (recipient-language.ts). */
  language: Language;
  recipientRole: Role;
  recipientName: string;
  senderName: string;
  /** The newest waiting messages, oldest first (at most QUOTED_MESSAGES). */
  messages: WaitingMessage[];
  /** How many messages wait in all. */
  total: number;
  delayMinutes: number;
  conversationUrl: string;
  settingsUrl: string;
  branding: Branding;
  /** Reply by email: answers to this mail post in the conversation (server/inbound). */
  replyTo?: string;
}

function quoteOf(t: Translate, message: WaitingMessage): string {
  if (message.content === null)
    return message.fileName === null
      ? t("Sent a file: (removed)")
      : t("Sent a file: {{fileName}}", { fileName: message.fileName });
  return message.content.length > QUOTE_CHARS
    ? `${message.content.slice(0, QUOTE_CHARS)}…`
    : message.content;
}

/**
 * Why the mail came, in three sentences: the wait (one count each: the messages, the minutes),
 * the one-email rule, and where the delay is changed (owner's dashboard or the portal).
 */
function footerOf(t: Translate, details: UnansweredMessagesMail): string {
  const minutes = t("{{count}} minutes", { count: details.delayMinutes });
  return [
    t(
      "You received this because these messages waited {{minutes}} without being read or answered.",
      { count: details.total, minutes },
    ),
    t("We send one email until you open the conversation again."),
    details.recipientRole === "owner"
      ? t(
          "To change how long we wait before emailing you (1 to 60 minutes), go to Account Settings, Notifications tab, in your ClientDesk dashboard.",
        )
      : t(
          "To change how long we wait before emailing you (1 to 60 minutes), go to the Settings tab of your conversation.",
        ),
  ].join(" ");
}

/** One email for every message of one conversation that waits for the recipient. */
export function unansweredMessagesMail(details: UnansweredMessagesMail): MailMessage {
  const t = translatorFor(details.language, "emails");
  const { total, senderName } = details;
  const earlier = total - details.messages.length;
  return {
    to: details.to,
    subject: t("{{count}} new messages from {{senderName}}", { count: total, senderName }),
    devHint: `${total === 1 ? "a message" : `${total} messages`} from ${senderName}, ${details.conversationUrl}`,
    attachments: details.branding.attachments,
    ...(details.replyTo ? { replyTo: details.replyTo } : {}),
    ...renderMail({
      brand: details.branding.brand,
      heading: t("{{senderName}} sent you {{count}} messages", { count: total, senderName }),
      paragraphs: [
        t("Hello {{recipientName}}, {{senderName}} is waiting for your answer on ClientDesk.", {
          recipientName: details.recipientName,
          senderName,
        }),
        ...(earlier > 0
          ? [
              t("The newest {{shown}} are below; {{count}} more came before them.", {
                shown: details.messages.length,
                count: earlier,
              }),
            ]
          : []),
        ...(details.replyTo
          ? [t("You can answer by replying to this email: your reply appears in the conversation.")]
          : []),
      ],
      quotes: details.messages.map((message) => ({
        from: senderName,
        text: quoteOf(t, message),
        list: openMarksList(t, message.openMarks ?? []),
        ...(message.decisionLinks &&
          approvalButtons(t, message.decisionLinks, message.fileName ?? "")),
      })),
      action: { label: t("Open the conversation"), url: details.conversationUrl },
      footer: footerOf(t, details),
      footerLink: { label: t("Change the email delay"), url: details.settingsUrl },
    }),
  };
}
