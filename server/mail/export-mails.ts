import type { Recipient } from "../i18n/recipient-language";
import { translatorFor } from "../i18n/translator";
import { renderMail } from "./layout";
import { mailFormats } from "./mail-formats";
import type { MailMessage } from "./mail-message";

export interface ExportReadyMail {
  to: string;
  recipient: Recipient;
  recipientName: string;
  /** What was exported: a client's name, or the workspace's. */
  subjectName: string;
  fileName: string;
  sizeBytes: number;
  /** The download link (its token opens the ZIP until `expiresAt`). */
  url: string;
  expiresAt: Date;
}

/** A large export (issue 28, point 4) is ready: its link works for 24 hours. */
export function exportReadyMail(details: ExportReadyMail): MailMessage {
  const { language, timeZone } = details.recipient;
  const t = translatorFor(language, "emails");
  const formats = mailFormats(language, timeZone, t);
  const { subjectName, fileName } = details;
  return {
    to: details.to,
    subject: t("Your ClientDesk export of {{subjectName}} is ready", { subjectName }),
    devHint: `export ${details.fileName} ${details.url}`,
    ...renderMail({
      heading: t("Your export is ready"),
      paragraphs: [
        t(
          "Hello {{recipientName}}, the export of {{subjectName}} you asked for is ready: {{fileName}} ({{size}}).",
          {
            recipientName: details.recipientName,
            subjectName,
            fileName,
            size: formats.fileSize(details.sizeBytes),
          },
        ),
        t(
          "The link works for 24 hours, until {{until}}. After that the file is deleted; start a new export in ClientDesk if you need it again.",
          { until: formats.isoDateTime(details.expiresAt) },
        ),
      ],
      action: { label: t("Download the export"), url: details.url },
      footer: t(
        "You received this because you asked ClientDesk for an export. Anyone with this link can download the file until it expires: do not forward this email.",
      ),
    }),
  };
}
