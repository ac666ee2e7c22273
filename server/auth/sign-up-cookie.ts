import type { AppContext } from "../context";
import { openToken, sealToken, sealingKey } from "./sealed-tokens";
import { signInStepCookie } from "./sign-in-step-cookie";

/** A sign-up as this browser typed it: the password already hashed. */
export interface PendingSignUp {
  email: string;
  fullName: string;
  passwordHash: string;
}

const COOKIE = "cd_sign_up";
const LIFETIME_MS = 60 * 60_000;
const AAD = "sign-up";

/**
 * The browser's own sign-up, sealed in an HttpOnly cookie for an hour. Verifying the address
 * from this browser applies this password and name: whoever proves the mailbox is the one who
 * typed them, whatever sign-ups for the same address came before or after (register-owner.ts).
 */
export function signUpCookie(ctx: AppContext) {
  const cookie = signInStepCookie(ctx, COOKIE, LIFETIME_MS);
  const key = sealingKey(ctx.services.config.sessionSecret, "sign-up-cookie");
  return {
    remember(signUp: PendingSignUp): void {
      cookie.set(sealToken(key, AAD, JSON.stringify(signUp)));
    },
    /** This browser's sign-up for `email`, if it made one. */
    read(email: string): PendingSignUp | null {
      const sealed = cookie.get();
      const opened = sealed ? openToken(key, AAD, sealed) : null;
      if (!opened) return null;
      const signUp = JSON.parse(opened) as PendingSignUp;
      return signUp.email === email ? signUp : null;
    },
    clear: () => cookie.clear(),
  };
}
