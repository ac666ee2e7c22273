import { DEFAULT_LANGUAGE, type Language } from "../../shared/i18n/languages";
import { EmailCodes } from "../auth/email-codes";
import type { PendingSignUp } from "../auth/sign-up-cookie";
import type { Services } from "../context";
import { requesterLanguage } from "../i18n/recipient-language";
import { alreadyRegisteredMail, verificationMail } from "../mail/account-mails";
import { UniqueViolationError } from "objection";
import { User } from "../models";

/**
 * Queues a sign-up, carried out after the answer: the answer and the time it takes are the same
 * whether the address is new, waiting for verification, or an account (the caller has only hashed
 * the password, which every sign-up does).
 */
export function registerOwner(
  services: Services,
  signUp: PendingSignUp,
  requestLanguage: Language,
): void {
  services.afterAnswer.add("sign-up", () => carryOutSignUp(services, signUp, requestLanguage));
}

/**
 * A new address gets an unverified owner on the free plan and a verification code. An address
 * with an account gets a notice and nothing changes. An address waiting for verification keeps
 * its password, name and code: its code is sent again (within the hourly cap), and the sign-up is
 * noted, so that verifying from another browser than this one (which holds its own sign-up in a
 * cookie) leaves the account without a password rather than with one a stranger may have typed.
 * The mails are in the account's language, else the sign-up request's.
 */
export async function carryOutSignUp(
  services: Services,
  signUp: PendingSignUp,
  /** The sign-up request's language: its mails' (unless the account has one) and, for a new
   * owner, the workspace's (issue 29). */
  requestLanguage: Language = DEFAULT_LANGUAGE,
): Promise<void> {
  const { db, config, clock, outbox } = services;
  const codes = new EmailCodes(config.sessionSecret, clock);
  const attempt = () =>
    db.transaction(async (trx) => {
      const existing = await User.query(trx)
        .findOne({ email: signUp.email, role: "owner" })
        .forUpdate();
      const language = requesterLanguage(existing, requestLanguage);
      if (existing?.emailVerifiedAt) {
        await outbox.enqueue(
          trx,
          alreadyRegisteredMail(signUp.email, config.appUrl, language),
          "already-registered",
        );
        return;
      }
      let userId = existing?.id;
      if (existing) {
        await User.query(trx).patch({ signUpRepeatedAt: clock.now() }).where("id", existing.id);
      } else {
        const user = await User.query(trx).insertAndFetch({
          email: signUp.email,
          passwordHash: signUp.passwordHash,
          fullName: signUp.fullName,
          role: "owner",
          accountTier: "free",
          workspaceLanguage: requestLanguage,
        });
        userId = user.id;
      }
      const code = await codes.codeToSend(userId as string, "verify_email", trx);
      if (code)
        await outbox.enqueue(
          trx,
          verificationMail(signUp.email, code, config.appUrl, language),
          "verification",
        );
    });
  try {
    await attempt();
  } catch (error) {
    // Two sign-ups for one new address at once: the other made the account; this one repeats.
    if (!(error instanceof UniqueViolationError)) throw error;
    await attempt();
  }
}
