import type { Clock } from "../clock";
import { tooManyRequests } from "../errors";

export interface Limit {
  /** Allowed attempts per window. */
  points: number;
  windowMs: number;
}

/**
 * Fixed-window counters kept in memory. Each instance limits on its own; with N instances
 * an attacker gets N times the budget, which still bounds guessing (codes also die after
 * 10 wrong tries in the database).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly clock: Clock) {}

  /** Counts one attempt; throws 429 when the key is over its limit. */
  consume(key: string, limit: Limit): void {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + limit.windowMs };
      this.windows.set(key, window);
      this.sweep(now);
    }
    window.count += 1;
    if (window.count > limit.points) {
      const minutes = Math.max(1, Math.ceil((window.resetAt - now) / 60_000));
      throw tooManyRequests(
        `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      );
    }
  }

  /** Forgets a key, e.g. the per-account failures after a successful sign-in. */
  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number) {
    if (this.windows.size < 10_000) return;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

const MINUTE = 60_000;

export const LIMITS = {
  signInPerIp: { points: 50, windowMs: 15 * MINUTE },
  signInFailuresPerAccount: { points: 10, windowMs: 15 * MINUTE },
  /** A browser with the account's device cookie (server/security/sign-in-throttle.ts). */
  signInFailuresPerDevice: { points: 10, windowMs: 15 * MINUTE },
  codeAttemptsPerIp: { points: 50, windowMs: 15 * MINUTE },
  mailPerAddress: { points: 5, windowMs: 60 * MINUTE },
  mailPerIp: { points: 30, windowMs: 60 * MINUTE },
  registerPerIp: { points: 30, windowMs: 60 * MINUTE },
  shortLinkPerIp: { points: 60, windowMs: 15 * MINUTE },
  invitePerIp: { points: 60, windowMs: 15 * MINUTE },
} satisfies Record<string, Limit>;
