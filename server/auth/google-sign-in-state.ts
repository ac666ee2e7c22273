import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/**
 * What the Google callback must find again (state, nonce, PKCE verifier). The flow keeps no
 * server state: this travels in a short-lived cookie, HMACed with a key derived from the
 * session secret.
 */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** Set when the desktop app started this sign-in: the browser hands a code to its loopback. */
  desktop?: DesktopHandOff;
  /** A path of this site to open once signed in (`/auth/google?next=`, e.g. a team invite). */
  returnTo?: string;
}

/** What the desktop app sent to /auth/google/desktop (RFC 8252 loopback, RFC 7636 PKCE). */
export interface DesktopHandOff {
  codeChallenge: string;
  /** The app's own state, echoed to its loopback listener. */
  appState: string;
  loopbackPort: number;
}

export const PENDING_TTL_MS = 10 * 60 * 1000;

function cookieKey(sessionSecret: string): Buffer {
  // A key of its own, so that this MAC can never be confused with another use of the secret.
  return createHmac("sha256", sessionSecret).update("clientdesk google sign-in state v1").digest();
}

function mac(payload: string, sessionSecret: string): string {
  return createHmac("sha256", cookieKey(sessionSecret)).update(payload).digest("base64url");
}

/** Compares two strings in constant time (over their hashes, so lengths may differ). */
function safeEqual(a: string, b: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export function sealPending(pending: PendingSignIn, sessionSecret: string): string {
  const payload = Buffer.from(JSON.stringify(pending)).toString("base64url");
  return `${payload}.${mac(payload, sessionSecret)}`;
}

const pendingSchema = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  verifier: z.string().min(43).max(128),
  expiresAt: z.number(),
  desktop: z
    .object({
      codeChallenge: z.string().length(43),
      appState: z.string().min(1).max(128),
      loopbackPort: z.number().int().min(1024).max(65535),
    })
    .optional(),
  returnTo: z.string().max(2000).optional(),
});

/** The pending sign-in in a cookie, or null when it is missing, forged or expired. */
export function openPending(
  cookie: string | undefined,
  sessionSecret: string,
  now: Date,
): PendingSignIn | null {
  if (!cookie || cookie.length > 1500) return null;
  const [payload, tag, ...rest] = cookie.split(".");
  if (!payload || !tag || rest.length) return null;
  if (!safeEqual(tag, mac(payload, sessionSecret))) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const parsed = pendingSchema.safeParse(decoded);
  if (!parsed.success || parsed.data.expiresAt <= now.getTime()) return null;
  return parsed.data;
}
