import type { MailMessage } from "../mail/mail-message";
import type { Mailer } from "../mail/mailer";
import type { AppMetrics } from "./app-metrics";

/** The mailer, counting each attempt as sent or failed (retries count as attempts of their own). */
export function countedMailer(mailer: Mailer, metrics: AppMetrics): Mailer {
  return {
    async send(message: MailMessage) {
      try {
        await mailer.send(message);
      } catch (error) {
        metrics.emails.inc({ outcome: "failed" });
        throw error;
      }
      metrics.emails.inc({ outcome: "sent" });
    },
    close: () => mailer.close(),
  };
}
