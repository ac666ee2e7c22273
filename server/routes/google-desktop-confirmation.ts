import { Router } from "@koa/router";
import {
  CONFIRMATION_TTL_MS,
  newConfirmation,
  openConfirmation,
  type PendingConfirmation,
  sealConfirmation,
} from "../auth/desktop-confirmation";
import type { DesktopHandOff } from "../auth/google-sign-in-state";
import { handOffToDesktop, loopbackUrl } from "../commands/desktop-hand-off";
import { signInStepCookie } from "../auth/sign-in-step-cookie";
import type { AppContext } from "../context";
import { HttpError } from "../errors";
import type { User } from "../models";
import {
  CANCEL_PATH,
  CONFIRM_PATH,
  confirmationPage,
  desktopPageCsp,
  expiredPage,
} from "../pages/desktop-sign-in-page";
import type { AreaRouter } from "./area-router";

/**
 * The step between Google and the desktop app's loopback (RFC 8252 §8.6): anyone can start a
 * desktop sign-in with their own PKCE challenge and port, and Google may answer without a
 * click, so the code goes to the loopback only after the user presses Continue on our page.
 */
const router: AreaRouter = new Router();

const SINGLE_USE = { points: 1, windowMs: CONFIRMATION_TTL_MS };

const confirmationCookie = (ctx: AppContext) =>
  signInStepCookie(ctx, "desktop_sign_in", CONFIRMATION_TTL_MS);

function showPage(ctx: AppContext, status: number, html: string, loopbackPort?: number) {
  ctx.status = status;
  ctx.set("Content-Security-Policy", desktopPageCsp(loopbackPort));
  ctx.set("Cache-Control", "no-store");
  ctx.type = "html";
  ctx.body = html;
}

/** The callback's desktop ending: keeps the hand-off in the cookie and shows the question. */
export function askDesktopConfirmation(ctx: AppContext, user: User, desktop: DesktopHandOff) {
  const { config, clock } = ctx.services;
  const pending = newConfirmation(user, desktop, clock.now());
  confirmationCookie(ctx).set(sealConfirmation(pending, config.sessionSecret));
  ctx.status = 303;
  ctx.redirect(CONFIRM_PATH);
}

const pendingOf = (ctx: AppContext) =>
  openConfirmation(
    confirmationCookie(ctx).get(),
    ctx.services.config.sessionSecret,
    ctx.services.clock.now(),
  );

router.get(CONFIRM_PATH, (ctx) => {
  const pending = pendingOf(ctx);
  if (pending) {
    showPage(ctx, 200, confirmationPage(pending.email), pending.desktop.loopbackPort);
  } else showPage(ctx, 400, expiredPage());
});

/**
 * The pending confirmation the user answered, spent: only from our own page (its Origin; the
 * request frame refuses foreign ones, this also refuses none), once. Null answers a page.
 */
async function spend(ctx: AppContext): Promise<PendingConfirmation | null> {
  const { config, rateLimiter, logger } = ctx.services;
  if (!config.allowedOrigins.includes(ctx.get("Origin"))) {
    logger.warn("desktop sign-in confirmation without the app's Origin");
    showPage(ctx, 403, expiredPage());
    return null;
  }
  const pending = pendingOf(ctx);
  confirmationCookie(ctx).clear();
  try {
    // A window of one: the same cookie sent again is refused.
    if (pending) await rateLimiter.consume(`desktopConfirmation:${pending.id}`, SINGLE_USE);
  } catch (error) {
    if (!(error instanceof HttpError && error.status === 429)) throw error;
    logger.warn("desktop sign-in confirmation used twice");
    showPage(ctx, 400, expiredPage());
    return null;
  }
  if (!pending) showPage(ctx, 400, expiredPage());
  return pending;
}

router.post(CONFIRM_PATH, async (ctx) => {
  const pending = await spend(ctx);
  if (!pending) return;
  ctx.set("Cache-Control", "no-store");
  ctx.status = 303;
  try {
    ctx.redirect(await handOffToDesktop(ctx.services, { id: pending.userId }, pending.desktop));
  } catch (error) {
    // The app is waiting on its loopback: it hears of the failure rather than time out.
    ctx.services.logger.error({ err: error }, "desktop Google sign-in could not be handed over");
    ctx.redirect(loopbackUrl(pending.desktop, { error: "google" }));
    return;
  }
  ctx.services.logger.info({ userId: pending.userId }, "Google sign-in handed to the desktop app");
});

router.post(CANCEL_PATH, async (ctx) => {
  const pending = await spend(ctx);
  if (!pending) return;
  ctx.set("Cache-Control", "no-store");
  ctx.status = 303;
  ctx.redirect(loopbackUrl(pending.desktop, { error: "cancelled" }));
  ctx.services.logger.info({ userId: pending.userId }, "desktop Google sign-in cancelled");
});

export default router;
