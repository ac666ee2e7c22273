import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { DesktopHandOff } from "./google-sign-in-state";
import { openToken, sealingKey, sealToken } from "./sealed-tokens";

/**
 * A desktop Google sign-in that waits for the user's "Continue" (RFC 8252 §8.6): who signed
 * in and where the code would go. It travels in a cookie, encrypted and authenticated under a
 * key of its own, so the server keeps no state until the user answers.
 */
export interface PendingConfirmation {
  /** Random: the confirmation is spent under this id (single use). */
  id: string;
  userId: string;
  email: string;
  desktop: DesktopHandOff;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export const CONFIRMATION_TTL_MS = 3 * 60 * 1000;

const LABEL = "clientdesk desktop sign-in confirmation v1";
const AAD = "desktop-sign-in-confirmation";

const confirmationSchema = z.object({
  id: z.string().length(22),
  userId: z.string().min(1).max(64),
  email: z.string().min(1).max(254),
  desktop: z.object({
    codeChallenge: z.string().length(43),
    appState: z.string().min(1).max(128),
    loopbackPort: z.number().int().min(1024).max(65535),
  }),
  expiresAt: z.number(),
});

export function newConfirmation(
  user: { id: string; email: string },
  desktop: DesktopHandOff,
  now: Date,
): PendingConfirmation {
  return {
    id: randomBytes(16).toString("base64url"),
    userId: user.id,
    email: user.email,
    desktop,
    expiresAt: now.getTime() + CONFIRMATION_TTL_MS,
  };
}

export function sealConfirmation(pending: PendingConfirmation, sessionSecret: string): string {
  return sealToken(sealingKey(sessionSecret, LABEL), AAD, JSON.stringify(pending));
}

/** The pending confirmation in a cookie, or null when it is missing, forged or expired. */
export function openConfirmation(
  cookie: string | undefined,
  sessionSecret: string,
  now: Date,
): PendingConfirmation | null {
  if (!cookie || cookie.length > 2000) return null;
  const json = openToken(sealingKey(sessionSecret, LABEL), AAD, cookie);
  if (json === null) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(json);
  } catch {
    return null;
  }
  const parsed = confirmationSchema.safeParse(decoded);
  if (!parsed.success || parsed.data.expiresAt <= now.getTime()) return null;
  return parsed.data;
}
