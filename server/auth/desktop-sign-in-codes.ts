import { createHash, randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { hashToken } from "./session-store";

/**
 * The one-time code that carries a Google sign-in from the system browser to the desktop app
 * (RFC 8252 with PKCE, RFC 7636): the browser only ever holds the code; the app redeems it with
 * the verifier only it knows. Only the code's hash is stored.
 */
const TABLE = "desktop_sign_in_codes";
export const DESKTOP_CODE_TTL_MS = 2 * 60 * 1000;

/** S256 of RFC 7636: base64url(SHA-256(verifier)). */
export const pkceChallengeOf = (verifier: string) =>
  createHash("sha256").update(verifier).digest("base64url");

export async function issueDesktopSignInCode(
  db: Knex,
  userId: string,
  codeChallenge: string,
  now: Date,
): Promise<string> {
  const code = randomBytes(32).toString("base64url");
  await db(TABLE).insert({
    codeHash: hashToken(code),
    userId,
    codeChallenge,
    expiresAt: new Date(now.getTime() + DESKTOP_CODE_TTL_MS),
  });
  return code;
}

/**
 * The user the code was issued to, when the code is current and the verifier matches its
 * challenge; the row goes in the same statement (a second redemption finds nothing). A wrong
 * verifier leaves the code as it was: only the app that holds the verifier can spend it.
 */
export async function redeemDesktopSignInCode(
  db: Knex,
  code: string,
  codeVerifier: string,
  now: Date,
): Promise<string | null> {
  const rows: { userId: string }[] = await db(TABLE)
    .where({ codeHash: hashToken(code), codeChallenge: pkceChallengeOf(codeVerifier) })
    .andWhere("expiresAt", ">", now)
    .delete()
    .returning("userId");
  return rows[0]?.userId ?? null;
}

/** Deletes the codes past their 2 minutes, redeemed or not (the hourly cleanup job). */
export async function deleteExpiredDesktopSignInCodes(db: Knex, now: Date): Promise<number> {
  return db(TABLE).where("expiresAt", "<=", now).delete();
}
