import { EmailCodes } from "../auth/email-codes";
import type { Services } from "../context";
import { passwordResetMail } from "../mail/account-mails";
import { User } from "../models";

/** Mails a reset code to an owner account; silent for unknown addresses. */
export async function requestPasswordReset(services: Services, email: string): Promise<void> {
  const { db, config, clock, mailer } = services;
  const codes = new EmailCodes(config.sessionSecret, clock);
  const code = await db.transaction(async (trx) => {
    const user = await User.query(trx).findOne({ email, role: "owner" });
    if (!user) return null;
    return codes.issue(user.id, "reset_password", trx);
  });
  if (code) await mailer.send(passwordResetMail(email, code, config.appUrl));
}
