import { verifyPassword } from "../auth/passwords";
import { badRequest, forbidden } from "../errors";
import type { Session, User } from "../models";
import { msg } from "../../shared/i18n/msg";

/** How recent a sign-in stands in for a password the account does not have. */
export const RECENT_SIGN_IN_MS = 10 * 60_000;

/** The account changes a stolen session must not be able to make on its own. */
export type SensitiveAction =
  | "deleteAccount"
  | "changePassword"
  | "signOutEverywhere"
  | "transferOwnership";

export const IDENTITY_MESSAGES = {
  wrongPassword: {
    deleteAccount: msg("Password is incorrect"),
    changePassword: msg("Current password is incorrect"),
    signOutEverywhere: msg("Password is incorrect"),
    transferOwnership: msg("Password is incorrect"),
  },
  signInAgain: {
    deleteAccount: msg(
      "For your security, sign in with Google again, then delete your account within 10 minutes",
    ),
    changePassword: msg(
      "For your security, sign in with Google again, then set your password within 10 minutes",
    ),
    signOutEverywhere: msg(
      "For your security, sign in with Google again, then sign out everywhere within 10 minutes",
    ),
    transferOwnership: msg(
      "For your security, sign in with Google again, then hand over the workspace within 10 minutes",
    ),
  },
} as const satisfies Record<string, Record<SensitiveAction, string>>;

/**
 * The one rule for account changes that would let a stolen session keep the account or lock
 * its owner out (deleting it, changing or setting its password, ending every session): the
 * person proves it is them again. With a password, the current password (400 when wrong);
 * without one (a Google-only account), a sign-in within RECENT_SIGN_IN_MS: this session must
 * have started that recently (403 otherwise), as an old session may be a stolen one.
 */
export async function confirmIdentity(
  actor: User,
  session: Session | undefined,
  password: string | undefined,
  now: Date,
  action: SensitiveAction,
): Promise<void> {
  if (actor.passwordHash) {
    if (!password || !(await verifyPassword(password, actor.passwordHash)))
      throw badRequest(IDENTITY_MESSAGES.wrongPassword[action]);
    return;
  }
  const signedInAt = session ? new Date(session.createdAt).getTime() : 0;
  if (now.getTime() - signedInAt > RECENT_SIGN_IN_MS)
    throw forbidden(IDENTITY_MESSAGES.signInAgain[action]);
}
