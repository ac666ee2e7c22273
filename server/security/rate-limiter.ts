import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from "rate-limiter-flexible";
import { type Database, isPglite } from "../db/connection";
import { tooManyRequests } from "../errors";

export interface Limit {
  /** Allowed attempts per window. */
  points: number;
  windowMs: number;
}

/** The shared windows' table (migration 20261125010000_rate_limits). */
export const RATE_LIMITS_TABLE = "rate_limits";

export interface RateLimiterOptions {
  /**
   * Starts every stored key; instances that share their limits share it. Tests give each
   * server its own, since the test servers of concurrent files share one database.
   */
  keyPrefix?: string;
}

type BuildLimiter = (options: {
  points: number;
  duration: number;
  keyPrefix: string;
}) => RateLimiterAbstract;

/**
 * Fixed-window counters (rate-limiter-flexible). On PostgreSQL they are rows of rate_limits,
 * so every instance on the database spends one budget; on PGlite (one process) they are kept
 * in memory. Windows run on the library's time, this machine's wall clock, not the app's Clock.
 */
export class RateLimiter {
  /** One library limiter per points and window: the key already names the limit. */
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly build: BuildLimiter,
    private readonly keyPrefix: string,
  ) {}

  /**
   * Counts one attempt; throws 429 with Retry-After when the key is over its limit. When the
   * store fails, its error goes up and the request fails (503 when the database cannot be
   * reached, see db/database-unavailable.ts): a limit never lets an attempt through unseen.
   */
  async consume(key: string, limit: Limit): Promise<void> {
    try {
      await this.limiterFor(limit).consume(key);
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) throw overLimit(outcome.msBeforeNext);
      throw outcome;
    }
  }

  /** Forgets a key, e.g. the per-account failures after a successful sign-in. */
  async reset(key: string, limit: Limit): Promise<void> {
    await this.limiterFor(limit).delete(key);
  }

  private limiterFor(limit: Limit): RateLimiterAbstract {
    const id = `${limit.points}/${limit.windowMs}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = this.build({
        points: limit.points,
        // The library counts in whole seconds.
        duration: Math.max(1, Math.ceil(limit.windowMs / 1000)),
        keyPrefix: this.keyPrefix,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}

/** The limiter for this database: shared through PostgreSQL, or in process on PGlite. */
export function createRateLimiter(db: Database, options: RateLimiterOptions = {}): RateLimiter {
  const keyPrefix = options.keyPrefix ?? "rl";
  if (isPglite(db))
    return new RateLimiter((settings) => new RateLimiterMemory(settings), keyPrefix);
  return new RateLimiter(
    (settings) =>
      new RateLimiterPostgres({
        ...settings,
        // The app's knex pool, with its connect, acquire and statement timeouts.
        storeClient: db,
        storeType: "knex",
        tableName: RATE_LIMITS_TABLE,
        // The migration made the table; the cleanup job (jobs/rate-limits-cleanup.ts) empties it.
        tableCreated: true,
        clearExpiredByTimeout: false,
      }),
    keyPrefix,
  );
}

/**
 * Deletes the PostgreSQL windows that ended before `now` (the cleanup job); the limiter already
 * ignores them and starts a key's window afresh, so a row deleted under a new attempt is no loss.
 */
export async function deleteEndedWindows(db: Database, now: Date): Promise<number> {
  if (isPglite(db)) return 0;
  return db(RATE_LIMITS_TABLE).where("expire", "<", now.getTime()).delete();
}

function overLimit(msBeforeNext: number) {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return tooManyRequests(
    "Too many attempts. Please try again in {{count}} minutes.",
    { count: minutes },
    seconds,
  );
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
  /** Approve / Needs Work links: 256-bit tokens, so this only keeps the lookups cheap. */
  feedbackLinkPerIp: { points: 120, windowMs: 15 * MINUTE },
} satisfies Record<string, Limit>;
