import { EmailCodes } from "../auth/email-codes";
import type { Services } from "../context";
import { verificationMail } from "../mail/account-mails";
import { User } from "../models";
import { sendWithRetries } from "../mail/send-with-retries";

/**
 * Queues a new verification code for an unverified account, looked up and mailed after the
 * answer so that the answer and its time are the same for every address.
 */
export function resendVerification(services: Services, email: string): void {
  services.afterAnswer.add("verification mail", () => sendVerificationAgain(services, email));
}

/** Replaces the verification code of an unverified account; nothing for any other address. */
export async function sendVerificationAgain(services: Services, email: string): Promise<void> {
  const { db, config, clock, mailer } = services;
  const codes = new EmailCodes(config.sessionSecret, clock);
  const code = await db.transaction(async (trx) => {
    const user = await User.query(trx).findOne({ email, role: "owner" });
    if (!user || user.emailVerifiedAt || !user.passwordHash) return null;
    return codes.issue(user.id, "verify_email", trx);
  });
  if (code) await sendWithRetries(mailer, verificationMail(email, code, config.appUrl));
}
