import type { LoginInput } from "../../shared/schemas/auth";
import type { Knex } from "knex";
import { verifyPassword } from "../auth/passwords";
import { HttpError } from "../errors";
import { User } from "../models";
import { msg } from "../../shared/i18n/msg";

export const INVALID_CREDENTIALS = msg("Invalid email or password");

/** Checks email and password; an unverified owner is told to verify (403) only after a right password. */
export async function authenticate(db: Knex, input: LoginInput): Promise<User> {
  const user = await User.query(db).findOne({ email: input.username, role: "owner" });
  const passwordMatches = await verifyPassword(input.password, user?.passwordHash ?? null);
  if (!user || !passwordMatches) throw new HttpError(401, INVALID_CREDENTIALS);
  if (!user.emailVerifiedAt) {
    throw new HttpError(
      403,
      // The prefix is a code the sign-in page recognises: every translation keeps it.
      msg("VERIFICATION_REQUIRED: Please verify your email address before logging in"),
      {
        requiresVerification: true,
        email: user.email,
      },
    );
  }
  return user;
}
