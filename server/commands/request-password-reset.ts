import { EmailCodes } from "../auth/email-codes";
import type { Services } from "../context";
import { passwordResetMail } from "../mail/account-mails";
import { User } from "../models";
import { sendWithRetries } from "../mail/send-with-retries";

/**
 * Queues a reset code for an owner account, to be looked up and mailed after the answer: the
 * caller learns nothing about the address, not even from the time the answer takes.
 */
export function requestPasswordReset(services: Services, email: string): void {
  services.afterAnswer.add("password reset mail", () => sendPasswordReset(services, email));
}

/** Mails a reset code to an owner account; nothing for unknown addresses or past the code cap. */
export async function sendPasswordReset(services: Services, email: string): Promise<void> {
  const { db, config, clock, mailer } = services;
  const codes = new EmailCodes(config.sessionSecret, clock);
  const code = await db.transaction(async (trx) => {
    const user = await User.query(trx).findOne({ email, role: "owner" });
    if (!user) return null;
    return codes.issue(user.id, "reset_password", trx);
  });
  if (code) await sendWithRetries(mailer, passwordResetMail(email, code, config.appUrl));
}
