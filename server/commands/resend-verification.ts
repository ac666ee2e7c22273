import { EmailCodes } from "../auth/email-codes";
import type { Services } from "../context";
import { verificationMail } from "../mail/account-mails";
import { User } from "../models";

/** Replaces the verification code of an unverified account; silent for any other address. */
export async function resendVerification(services: Services, email: string): Promise<void> {
  const { db, config, clock, mailer } = services;
  const codes = new EmailCodes(config.sessionSecret, clock);
  const code = await db.transaction(async (trx) => {
    const user = await User.query(trx).findOne({ email, role: "owner" });
    if (!user || user.emailVerifiedAt || !user.passwordHash) return null;
    return codes.issue(user.id, "verify_email", trx);
  });
  if (code) await mailer.send(verificationMail(email, code, config.appUrl));
}
