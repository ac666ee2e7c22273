import type Cookies from "cookies";
import type { Config } from "../config";
import type { User } from "../models";
import {
  DEVICE_COOKIE,
  DEVICE_COOKIE_MAX_AGE_MS,
  DEVICE_COOKIE_PATH,
  DeviceCookies,
} from "./device-cookies";
import { LIMITS, type RateLimiter } from "./rate-limiter";

/** What the throttle uses of a request (a route's context): the limiter, the settings, cookies. */
interface SignInRequest {
  services: { rateLimiter: RateLimiter; config: Config };
  cookies: Pick<Cookies, "get" | "set">;
}

export interface SignInAttempt {
  /** A right password: forgets this attempt's failures and renews the browser's device cookie. */
  succeeded(user: User): Promise<void>;
  /** Counts nothing against it (a right password on an unverified account). */
  forget(): Promise<void>;
}

/**
 * Counts a password sign-in attempt: against the account for an unknown browser (10 failures
 * lock the account for strangers for 15 minutes), but against the browser's own device when it
 * shows a valid device cookie for this account, so that a stranger's guessing cannot lock the
 * owner out. Throws 429 when the counted limit is spent. Attempts count and a success forgets
 * them: in effect, failures.
 */
export async function countSignInAttempt(
  ctx: SignInRequest,
  username: string,
): Promise<SignInAttempt> {
  const { rateLimiter, config } = ctx.services;
  const devices = new DeviceCookies(config.sessionSecret);
  const device = devices.deviceFor(ctx.cookies.get(DEVICE_COOKIE), username);
  const key = device ? `signInFailuresPerDevice:${device}` : `signInFailuresPerAccount:${username}`;
  const limit = device ? LIMITS.signInFailuresPerDevice : LIMITS.signInFailuresPerAccount;
  await rateLimiter.consume(key, limit);
  return {
    async succeeded(user) {
      // A trusted device's success leaves the account's count alone: it is the strangers'.
      await rateLimiter.reset(key, limit);
      rememberDevice(ctx, user);
    },
    async forget() {
      await rateLimiter.reset(key, limit);
    },
  };
}

/** Gives this browser a (new) device cookie for the account it has just signed in to. */
export function rememberDevice(ctx: SignInRequest, user: User): void {
  const { config } = ctx.services;
  ctx.cookies.set(DEVICE_COOKIE, new DeviceCookies(config.sessionSecret).issue(user.email), {
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    path: DEVICE_COOKIE_PATH,
    maxAge: DEVICE_COOKIE_MAX_AGE_MS,
    overwrite: true,
    signed: false,
  });
}
