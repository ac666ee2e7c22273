import type { DesktopGoogleStartQuery } from "../../shared/schemas/auth";
import type { DesktopHandOff } from "../auth/google-sign-in-state";
import { issueDesktopSignInCode, redeemDesktopSignInCode } from "../auth/desktop-sign-in-codes";
import type { Services } from "../context";
import { badRequest } from "../errors";
import { User } from "../models";

/**
 * Google sign-in for the desktop app (RFC 8252): the system browser does the Google part and,
 * once the user confirms (routes/google-desktop-confirmation.ts), is sent to the app's loopback
 * listener with a one-time code instead of being signed in; the app redeems the code with its
 * PKCE verifier and gets the session.
 */

export const desktopHandOffFrom = (query: DesktopGoogleStartQuery): DesktopHandOff => ({
  codeChallenge: query.code_challenge,
  appState: query.state,
  loopbackPort: query.port,
});

/** The app's listener: 127.0.0.1, never "localhost" (RFC 8252 §7.3, §8.3). */
export function loopbackUrl(desktop: DesktopHandOff, answer: { code: string } | { error: string }) {
  const url = new URL(`http://127.0.0.1:${desktop.loopbackPort}/callback`);
  for (const [name, value] of Object.entries(answer)) url.searchParams.set(name, value);
  url.searchParams.set("state", desktop.appState);
  return url.href;
}

/** Issues the one-time code for `user`; returns where the browser goes with it. */
export async function handOffToDesktop(
  services: Services,
  user: Pick<User, "id">,
  desktop: DesktopHandOff,
): Promise<string> {
  const code = await issueDesktopSignInCode(
    services.db,
    user.id,
    desktop.codeChallenge,
    services.clock.now(),
  );
  return loopbackUrl(desktop, { code });
}

/** The user a code and verifier sign in; a wrong, spent or expired code is a 400. */
export async function redeemDesktopHandOff(
  services: Services,
  input: { code: string; codeVerifier: string },
): Promise<User> {
  const { db, clock } = services;
  const userId = await redeemDesktopSignInCode(db, input.code, input.codeVerifier, clock.now());
  const user = userId ? await User.query(db).findById(userId) : undefined;
  if (!user) throw badRequest("This sign-in has expired or was already used. Try again.");
  return user;
}
