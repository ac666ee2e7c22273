import type { Role } from "../../shared/schemas/user";
import type { Branding } from "./branding";
import { renderMail } from "./layout";
import type { MailMessage } from "./mail-message";

/** The two buttons of one file in an email. */
export interface DecisionLinks {
  approveUrl: string;
  needsWorkUrl: string;
}

/** At most this many waiting messages are quoted; the mail says how many there are in all. */
export const QUOTED_MESSAGES = 10;
const QUOTE_CHARS = 1_000;
/** Said in mails that carry a reply address (reply by email). */
export const REPLY_HINT =
  "You can answer by replying to this email: your reply appears in the conversation.";

export interface WaitingMessage {
  /** Text, or null for a file message. */
  content: string | null;
  fileName: string | null;
  /** An owner's file that waits for the client's decision: its Approve and Needs Work links. */
  decisionLinks?: DecisionLinks;
}

export interface UnansweredMessagesMail {
  to: string;
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

function quoteOf(message: WaitingMessage): string {
  if (message.content === null) return `Sent a file: ${message.fileName ?? "(removed)"}`;
  return message.content.length > QUOTE_CHARS
    ? `${message.content.slice(0, QUOTE_CHARS)}…`
    : message.content;
}

/** One email for every message of one conversation that waits for the recipient. */
export function unansweredMessagesMail(details: UnansweredMessagesMail): MailMessage {
  const { total, senderName, delayMinutes } = details;
  const what = total === 1 ? "a message" : `${total} messages`;
  const earlier = total - details.messages.length;
  const minutes = delayMinutes === 1 ? "1 minute" : `${delayMinutes} minutes`;
  const where =
    details.recipientRole === "owner"
      ? "Account Settings, Notifications tab, in your ClientDesk dashboard"
      : "the Settings tab of your conversation";
  return {
    to: details.to,
    subject:
      total === 1 ? `New message from ${senderName}` : `${total} new messages from ${senderName}`,
    devHint: `${what} from ${senderName}, ${details.conversationUrl}`,
    attachments: details.branding.attachments,
    ...(details.replyTo ? { replyTo: details.replyTo } : {}),
    ...renderMail({
      brand: details.branding.brand,
      heading: `${senderName} sent you ${what}`,
      paragraphs: [
        `Hello ${details.recipientName}, ${senderName} is waiting for your answer on ClientDesk.`,
        ...(earlier > 0
          ? [`The newest ${details.messages.length} are below; ${earlier} more came before them.`]
          : []),
        ...(details.replyTo ? [REPLY_HINT] : []),
      ],
      quotes: details.messages.map((message) => ({
        from: senderName,
        text: quoteOf(message),
        ...(message.decisionLinks && {
          buttonsIntro:
            "This file waits for your approval. Each button opens a page where you confirm.",
          buttons: [
            {
              label: "Approve",
              url: message.decisionLinks.approveUrl,
              name: message.fileName ?? "",
            },
            {
              label: "Needs Work",
              url: message.decisionLinks.needsWorkUrl,
              name: message.fileName ?? "",
            },
          ],
        }),
      })),
      action: { label: "Open the conversation", url: details.conversationUrl },
      footer:
        `You received this because ${what === "a message" ? "this message" : "these messages"} waited ${minutes} without being read or answered. ` +
        "We send one email until you open the conversation again. " +
        `To change how long we wait before emailing you (1 to 60 minutes), go to ${where}.`,
      footerLink: { label: "Change the email delay", url: details.settingsUrl },
    }),
  };
}
