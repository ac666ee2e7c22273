import { EmailCodes } from "../auth/email-codes";
import type { Services } from "../context";
import type { Language } from "../../shared/i18n/languages";
import { requesterLanguage } from "../i18n/recipient-language";
import { passwordResetMail } from "../mail/account-mails";
import { User } from "../models";

/**
 * Queues a reset code for an owner account, to be looked up and mailed after the answer: the
 * caller learns nothing about the address, not even from the time the answer takes.
 */
export function requestPasswordReset(
  services: Services,
  email: string,
  requestLanguage: Language,
): void {
  services.afterAnswer.add("password reset mail", () =>
    sendPasswordReset(services, email, requestLanguage),
  );
}

/**
 * Writes the reset code of an owner account to the outbox (the live code again, or a new one);
 * nothing for unknown addresses or past the cap of mails per hour. In the account's language,
 * else the request's.
 */
export async function sendPasswordReset(
  services: Services,
  email: string,
  requestLanguage: Language,
): Promise<void> {
  const { db, config, clock, outbox } = services;
  const codes = new EmailCodes(config.sessionSecret, clock);
  await db.transaction(async (trx) => {
    const user = await User.query(trx).findOne({ email, role: "owner" });
    if (!user) return;
    const code = await codes.codeToSend(user.id, "reset_password", trx);
    if (code)
      await outbox.enqueue(
        trx,
        passwordResetMail(email, code, config.appUrl, requesterLanguage(user, requestLanguage)),
        "password-reset",
      );
  });
}
