import type { VerifyEmailInput } from "../../shared/schemas/auth";
import { EmailCodes } from "../auth/email-codes";
import type { Services } from "../context";
import { badRequest } from "../errors";
import { User } from "../models";

export const INVALID_VERIFICATION_CODE = "Invalid or expired verification code";

/** Marks the address verified when the code is right; answers the user to sign in. */
export async function verifyEmail(services: Services, input: VerifyEmailInput): Promise<User> {
  const { db, config, clock } = services;
  const codes = new EmailCodes(config.sessionSecret, clock);
  const user = await db.transaction(async (trx) => {
    const user = await User.query(trx).findOne({ email: input.email, role: "owner" });
    if (!user || user.emailVerifiedAt) return null;
    if (!(await codes.consume(user.id, "verify_email", input.code, trx))) return null;
    return User.query(trx).patchAndFetchById(user.id, { emailVerifiedAt: clock.now() });
  });
  if (!user) throw badRequest(INVALID_VERIFICATION_CODE);
  return user;
}
