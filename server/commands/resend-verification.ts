import { EmailCodes } from "../auth/email-codes";
import type { Services } from "../context";
import type { Language } from "../../shared/i18n/languages";
import { requesterLanguage } from "../i18n/recipient-language";
import { verificationMail } from "../mail/account-mails";
import { User } from "../models";

/**
 * Queues the verification code of an unverified account, looked up and mailed after the
 * answer so that the answer and its time are the same for every address.
 */
export function resendVerification(
  services: Services,
  email: string,
  requestLanguage: Language,
): void {
  services.afterAnswer.add("verification mail", () =>
    sendVerificationAgain(services, email, requestLanguage),
  );
}

/**
 * Writes the verification code of an unverified account to the outbox: the live code again
 * (the one its owner may already hold), or a new one once it is nearly spent. Nothing for any
 * other address, nor past the cap of mails per hour. In the account's language, else the
 * request's.
 */
export async function sendVerificationAgain(
  services: Services,
  email: string,
  requestLanguage: Language,
): Promise<void> {
  const { db, config, clock, outbox } = services;
  const codes = new EmailCodes(config.sessionSecret, clock);
  await db.transaction(async (trx) => {
    const user = await User.query(trx).findOne({ email, role: "owner" });
    if (!user || user.emailVerifiedAt) return;
    const code = await codes.codeToSend(user.id, "verify_email", trx);
    if (code)
      await outbox.enqueue(
        trx,
        verificationMail(email, code, config.appUrl, requesterLanguage(user, requestLanguage)),
        "verification",
      );
  });
}
