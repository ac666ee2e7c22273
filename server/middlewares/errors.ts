import type { AppContext } from "../context";
import {
  isDatabaseUnavailable,
  RETRY_AFTER_SECONDS,
  UNAVAILABLE_MESSAGE,
} from "../db/database-unavailable";
import { msg } from "../../shared/i18n/msg";
import { HttpError } from "../errors";
import { readable } from "../i18n/readable";
import { loggedPath } from "./request-log";

/** Every failure leaves as JSON {message}; unexpected ones are logged and kept vague. */
export function presentError(ctx: AppContext, error: unknown): void {
  if (error instanceof HttpError) {
    ctx.status = error.status;
    ctx.set(error.headers);
    ctx.body = { message: readable(ctx, error.message, error.values), ...error.body };
    return;
  }
  const status = (error as { status?: number; expose?: boolean }).status;
  if (status && status >= 400 && status < 500) {
    // Errors raised by koa itself: its texts are translated where the catalog has them.
    ctx.status = status;
    ctx.body = {
      message: readable(
        ctx,
        status === 413 ? msg("Request body is too large") : (error as Error).message,
      ),
    };
    return;
  }
  if (isDatabaseUnavailable(error)) {
    ctx.services.logger.warn({ err: error, path: loggedPath(ctx.path) }, "database unavailable");
    ctx.status = 503;
    ctx.set("Retry-After", String(RETRY_AFTER_SECONDS));
    ctx.body = { message: readable(ctx, UNAVAILABLE_MESSAGE) };
    return;
  }
  ctx.services.logger.error({ err: error, path: loggedPath(ctx.path) }, "request failed");
  ctx.status = 500;
  ctx.body = { message: readable(ctx, msg("Something went wrong. Please try again.")) };
}

/** An API path that nothing answered is a JSON 404, like every other error. */
export function presentApiNotFound(ctx: AppContext): void {
  if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith("/api/")) {
    ctx.status = 404;
    ctx.body = { message: readable(ctx, msg("Not found")) };
  }
}

/** A known path asked with another method (the router's allowedMethods()): JSON like the rest. */
export function presentMethodNotAllowed(ctx: AppContext): void {
  if ((ctx.status === 405 || ctx.status === 501) && ctx.body === undefined)
    ctx.body = {
      message: readable(ctx, msg("{{method}} is not allowed here"), { method: ctx.method }),
    };
}
