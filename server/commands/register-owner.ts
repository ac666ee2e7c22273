import type { RegisterInput } from "../../shared/schemas/auth";
import { EmailCodes } from "../auth/email-codes";
import { hashPassword } from "../auth/passwords";
import type { Services } from "../context";
import { alreadyRegisteredMail, verificationMail } from "../mail/account-mails";
import { User } from "../models";

/**
 * Creates an unverified owner on the free plan and mails a verification code. An address that
 * already has an account gets a notice instead, and the caller sees the same answer either
 * way, so sign-up does not reveal who has an account.
 */
export async function registerOwner(services: Services, input: RegisterInput): Promise<void> {
  const { db, config, clock, mailer } = services;
  const passwordHash = await hashPassword(input.password);
  const codes = new EmailCodes(config.sessionSecret, clock);
  const outcome = await db.transaction(async (trx) => {
    const existing = await User.query(trx).findOne({ email: input.email, role: "owner" });
    if (existing) {
      if (existing.emailVerifiedAt) return { kind: "exists" as const };
      // Unverified sign-up again: take the newer password and send a fresh code.
      await User.query(trx).patch({ passwordHash, fullName: input.fullName }).where("id", existing.id);
      return { kind: "code" as const, code: await codes.issue(existing.id, "verify_email", trx) };
    }
    const user = await User.query(trx).insertAndFetch({
      email: input.email,
      passwordHash,
      fullName: input.fullName,
      role: "owner",
      accountTier: "free",
    });
    return { kind: "code" as const, code: await codes.issue(user.id, "verify_email", trx) };
  });
  if (outcome.kind === "exists") await mailer.send(alreadyRegisteredMail(input.email, config.appUrl));
  // No code past the cap of codes per hour: nothing is sent, and the answer is the same.
  else if (outcome.code) await mailer.send(verificationMail(input.email, outcome.code, config.appUrl));
}
