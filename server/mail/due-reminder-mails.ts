import type { Language } from "../../shared/i18n/languages";
import { translatorFor } from "../i18n/translator";
import type { Branding } from "./branding";
import { renderMail } from "./layout";
import { mailFormats } from "./mail-formats";
import type { MailMessage } from "./mail-message";
import {
  approvalButtons,
  type DecisionLinks,
  type OpenMark,
  openMarksList,
} from "./notification-mails";

/** Which reminder: at 09:00 the day before the due date, and at 09:00 on it. */
export type DueReminderKind = "due_tomorrow" | "due_today";

export interface DueReminderMail {
  to: string;
  /** The recipient's (recipient-language.ts). */
  language: Language;
  kind: DueReminderKind;
  recipientName: string;
  /** The owner's side as the portal names it (the agency). */
  senderName: string;
  fileName: string;
  /** YYYY-MM-DD. */
  dueDate: string;
  decisionLinks: DecisionLinks;
  /** The version's open review marks, listed under the file as in the approval email. */
  openMarks?: OpenMark[];
  conversationUrl: string;
  branding: Branding;
}

/** A reminder that a file waits for the reader's decision by its due date (issue 27). */
export function dueReminderMail(details: DueReminderMail): MailMessage {
  const t = translatorFor(details.language, "emails");
  const date = mailFormats(details.language, null, t).longDate(details.dueDate);
  const { fileName, senderName } = details;
  const today = details.kind === "due_today";
  return {
    to: details.to,
    subject: today
      ? t("Due today: {{fileName}} waits for your approval", { fileName })
      : t("Due tomorrow: {{fileName}} waits for your approval", { fileName }),
    devHint: `${fileName} due ${details.dueDate}, ${details.conversationUrl}`,
    attachments: details.branding.attachments,
    ...renderMail({
      brand: details.branding.brand,
      heading: today
        ? t("{{fileName}} is due today", { fileName })
        : t("{{fileName}} is due tomorrow", { fileName }),
      paragraphs: [
        t(
          "Hello {{recipientName}}, {{senderName}} asked for your decision on {{fileName}} by {{date}}.",
          { recipientName: details.recipientName, senderName, fileName, date },
        ),
      ],
      quotes: [
        {
          from: senderName,
          text: t("Sent a file: {{fileName}}", { fileName }),
          list: openMarksList(t, details.openMarks ?? []),
          ...approvalButtons(t, details.decisionLinks, fileName),
        },
      ],
      action: { label: t("Open the conversation"), url: details.conversationUrl },
      footer: t(
        "You received this because {{senderName}} set a due date of {{date}} on this file. We remind you the day before and on the day, until someone on your side decides.",
        { senderName, date },
      ),
    }),
  };
}
