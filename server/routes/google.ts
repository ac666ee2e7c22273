import { Router } from "@koa/router";
import type { z } from "zod";
import {
  desktopGoogleStartQuery,
  desktopSignInExchangeInput,
  type googleAvailableResponse,
} from "../../shared/schemas/auth";
import { finishGoogleSignIn, GoogleSignInError, startGoogleSignIn } from "../auth/google";
import {
  type DesktopHandOff,
  openPending,
  PENDING_TTL_MS,
  sealPending,
} from "../auth/google-sign-in-state";
import { signIn } from "../auth/sessions";
import { signInStepCookie } from "../auth/sign-in-step-cookie";
import { withFeatures } from "../billing/feature-tier";
import {
  desktopHandOffFrom,
  loopbackUrl,
  redeemDesktopHandOff,
} from "../commands/desktop-hand-off";
import { GoogleAccountRefused, signInWithGoogle } from "../commands/sign-in-with-google";
import { Client } from "../models";
import { presentUser } from "../presenters/user";
import { personLanguage, signUpLanguage } from "../i18n/request-language";
import type { AppContext } from "../context";
import { HttpError, notFound } from "../errors";
import { LIMITS } from "../security/rate-limiter";
import { type AreaRouter, withInput } from "./area-router";
import { askDesktopConfirmation } from "./google-desktop-confirmation";
import { parseOrThrow } from "../validate";
import { safeNextPath } from "../../shared/next-path";

const router: AreaRouter = new Router();

const FAILURE_REDIRECT = "/auth?error=google";

const stateCookie = (ctx: AppContext) => signInStepCookie(ctx, "google_sign_in", PENDING_TTL_MS);

const redirectUri = (ctx: AppContext) => `${ctx.services.config.appUrl}/auth/google/callback`;

/** The callback as Google called it, on the redirect URI the authorization request named. */
const callbackUrl = (ctx: AppContext) => new URL(`${redirectUri(ctx)}?${ctx.querystring}`);

router.get("/api/auth/google-available", (ctx) => {
  ctx.body = { available: Boolean(ctx.services.config.google) } satisfies z.infer<
    typeof googleAvailableResponse
  >;
});

/** Sends the browser to Google, the pending sign-in kept in the state cookie. */
async function redirectToGoogle(
  ctx: AppContext,
  desktop?: DesktopHandOff,
  returnTo?: string,
): Promise<void> {
  const google = ctx.services.config.google;
  if (!google) throw notFound("Google sign-in is not available");
  ctx.set("Cache-Control", "no-store");
  let started: Awaited<ReturnType<typeof startGoogleSignIn>>;
  try {
    started = await startGoogleSignIn(google, redirectUri(ctx), ctx.services.clock.now(), desktop);
  } catch (error) {
    // Usually the issuer's discovery document could not be fetched.
    ctx.services.logger.warn({ err: error }, "Google sign-in could not start");
    ctx.redirect(desktop ? loopbackUrl(desktop, { error: "google" }) : FAILURE_REDIRECT);
    return;
  }
  const pending = returnTo ? { ...started.pending, returnTo } : started.pending;
  stateCookie(ctx).set(sealPending(pending, ctx.services.config.sessionSecret));
  ctx.redirect(started.url);
}

router.get("/auth/google", (ctx) =>
  redirectToGoogle(ctx, undefined, safeNextPath(ctx.query.next) ?? undefined),
);

// The desktop app's start, opened in the system browser (RFC 8252): see desktop-hand-off.ts.
router.get("/auth/google/desktop", (ctx) =>
  redirectToGoogle(ctx, desktopHandOffFrom(parseOrThrow(desktopGoogleStartQuery, ctx.query))),
);

router.get("/auth/google/callback", async (ctx) => {
  const { config, clock, logger, rateLimiter } = ctx.services;
  const cookie = stateCookie(ctx).get();
  // Single use: whatever happens next, the pending sign-in is over.
  stateCookie(ctx).clear();
  ctx.set("Cache-Control", "no-store");
  // Opened first (a MAC, no I/O): every later failure of a desktop start reaches the app.
  const pending = openPending(cookie, config.sessionSecret, clock.now());
  const desktop = pending?.desktop;
  try {
    const google = config.google;
    if (!google) throw new GoogleSignInError("Google sign-in is not configured");
    await rateLimiter.consume(`signInPerIp:${ctx.ip}`, LIMITS.signInPerIp);
    if (!pending) throw new GoogleSignInError("state cookie missing, forged or expired");
    // openid-client checks the state, Google's error answer and the rest.
    const identity = await finishGoogleSignIn(google, callbackUrl(ctx), pending);
    const user = await signInWithGoogle(ctx.services, identity, signUpLanguage(ctx));
    if (desktop) {
      // The system browser is not signed in, and hands nothing on before the user confirms.
      askDesktopConfirmation(ctx, user, desktop);
      return;
    }
    await signIn(ctx, user, "google");
    logger.info({ userId: user.id }, "signed in with Google");
    ctx.redirect(safeNextPath(pending.returnTo) ?? "/");
  } catch (error) {
    const expected =
      error instanceof GoogleSignInError ||
      error instanceof GoogleAccountRefused ||
      (error instanceof HttpError && error.status === 429);
    // Expected refusals are warnings; anything else (e.g. the database) is our own error.
    if (expected) logger.warn({ reason: (error as Error).message }, "Google sign-in failed");
    else logger.error({ err: error }, "Google sign-in failed");
    ctx.redirect(desktop ? loopbackUrl(desktop, { error: "google" }) : FAILURE_REDIRECT);
  }
});

/** The desktop app redeems the loopback's code with its PKCE verifier: it is signed in. */
router.post(
  "/api/auth/desktop/exchange",
  withInput(desktopSignInExchangeInput, async (ctx, input) => {
    const { services } = ctx;
    await services.rateLimiter.consume(`signInPerIp:${ctx.ip}`, LIMITS.signInPerIp);
    const user = await redeemDesktopHandOff(services, input);
    await signIn(ctx, user, "desktop");
    services.logger.info({ userId: user.id }, "signed in with Google in the desktop app");
    ctx.body = presentUser(
      withFeatures(services.config, user),
      await personLanguage(ctx, user),
      await Client.idOfUser(services.db, user),
    );
  }),
);

export default router;
