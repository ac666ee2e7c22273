import type { VerifyEmailInput } from "../../shared/schemas/auth";
import { EmailCodes } from "../auth/email-codes";
import type { PendingSignUp } from "../auth/sign-up-cookie";
import type { Services } from "../context";
import { badRequest } from "../errors";
import { User } from "../models";
import { msg } from "../../shared/i18n/msg";

export const INVALID_VERIFICATION_CODE = msg("Invalid or expired verification code");

/**
 * Marks the address verified when the code is right; answers the user to sign in. `signUp` is
 * the verifying browser's own sign-up for this address (auth/sign-up-cookie.ts): its password and
 * name become the account's, since this browser has now proved the mailbox. Without it, an
 * address that was signed up for more than once keeps no password (any of them may have been a
 * stranger's); its owner, signed in by this verification, sets one in Settings.
 */
export async function verifyEmail(
  services: Services,
  input: VerifyEmailInput,
  signUp: PendingSignUp | null,
): Promise<User> {
  const { db, config, clock } = services;
  const codes = new EmailCodes(config.sessionSecret, clock);
  const user = await db.transaction(async (trx) => {
    const user = await User.query(trx).findOne({ email: input.email, role: "owner" });
    if (!user || user.emailVerifiedAt) return null;
    if (!(await codes.consume(user.id, "verify_email", input.code, trx))) return null;
    const password = signUp
      ? { passwordHash: signUp.passwordHash, fullName: signUp.fullName }
      : user.signUpRepeatedAt
        ? { passwordHash: null }
        : {};
    return User.query(trx).patchAndFetchById(user.id, {
      emailVerifiedAt: clock.now(),
      signUpRepeatedAt: null,
      ...password,
    });
  });
  if (!user) throw badRequest(INVALID_VERIFICATION_CODE);
  return user;
}
