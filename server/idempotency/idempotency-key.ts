import { badRequest } from "../errors";
import { msg } from "../../shared/i18n/msg";

/** The request header, as clients send it (Stripe's name and meaning). */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";

/** How long a key answers with its first result; older keys are deleted by a job. */
export const KEY_LIFETIME_MS = 24 * 60 * 60_000;

/**
 * An unfinished claim older than this is taken as abandoned (its process died before the
 * message was stored), so the retry may run. Taking over is safe even if the first attempt
 * is still alive: its message is stored only under its own claim (claims.ts).
 */
export const CLAIM_LEASE_MS = 2 * 60_000;

export const IDEMPOTENCY_MESSAGES = {
  invalid: msg("Idempotency-Key must be 1 to 255 printable ASCII characters"),
  inProgress: msg("This request is already being processed"),
  reused: msg("This Idempotency-Key was already used for another request"),
} as const;

// Printable ASCII, space included (a header value cannot start or end with one anyway).
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;

/** The request's key, undefined when it sends none; a malformed one is a 400. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== "string" || !KEY_PATTERN.test(header))
    throw badRequest(IDEMPOTENCY_MESSAGES.invalid);
  return header;
}
