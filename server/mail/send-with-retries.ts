import type { MailMessage } from "./mail-message";
import type { Mailer } from "./mailer";

/**
 * Sends a mail nobody waits for (queued after an answer), trying the SMTP server again after
 * 1 s and 5 s before giving up: a relay's brief hiccup should not lose a code or a link.
 */
export async function sendWithRetries(
  mailer: Mailer,
  mail: MailMessage,
  delaysMs: readonly number[] = [1_000, 5_000],
): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await mailer.send(mail);
    } catch (error) {
      const delay = delaysMs[attempt];
      if (delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
