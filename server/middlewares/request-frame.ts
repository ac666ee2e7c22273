import type { Next } from "koa";
import type { AppContext } from "../context";
import { requestLabels } from "../metrics/request-route";
import { preventApiCaching } from "./api-cache-control";
import { presentApiNotFound, presentError, presentMethodNotAllowed } from "./errors";
import { refuseMalformedPath } from "./malformed-path";
import { logRequest } from "./request-log";
import { sameOrigin } from "./same-origin";
import { securityHeaders } from "./security-headers";

/**
 * A page answered ahead of everything else, neither logged nor counted: the probes and
 * /metrics (routes/health.ts, routes/metrics.ts), passed in by app.ts.
 */
export interface FramePage {
  matches(ctx: AppContext): boolean;
  answer(ctx: AppContext): void | Promise<void>;
}

export interface RequestFrameOptions {
  appOrigin: string;
  allowedOrigins: string[];
  secureCookies: boolean;
  /** Paths that need no Origin (signed webhooks). */
  rawBodyPaths: string[];
  /** Answered first, in this order: the probes, /metrics. */
  pages: FramePage[];
}

/**
 * What every request goes through before its route, in order: security headers, the probes
 * and /metrics (neither logged nor counted), the cross-site check; then, mounted after it in
 * app.ts, the session (koa-session) and the body (koa-body); and after it: the JSON 404 and
 * 405, error answers, one log line with the final status and its duration in the metrics.
 * While the instance drains, every answer says Connection: close. One middleware calling
 * plain functions rather than seven Koa layers, because each layer's promise plumbing cost a few microseconds per request
 * (a third of GET /api/user's time; see docs/benchmarks.md).
 */
export function requestFrame(options: RequestFrameOptions) {
  const setSecurityHeaders = securityHeaders(options.appOrigin, options.secureCookies);
  const refuseCrossSite = sameOrigin(options.allowedOrigins, options.rawBodyPaths);
  const { pages } = options;

  return async function frame(ctx: AppContext, next: Next): Promise<void> {
    setSecurityHeaders(ctx);
    closeIfDraining(ctx);
    for (const page of pages) if (page.matches(ctx)) return page.answer(ctx);
    const startedAt = performance.now();
    try {
      refuseMalformedPath(ctx);
      refuseCrossSite(ctx);
      await next();
      presentApiNotFound(ctx);
      presentMethodNotAllowed(ctx);
    } catch (error) {
      presentError(ctx, error);
    }
    preventApiCaching(ctx);
    // Again: a drain may have begun while this request was under way (a long upload).
    closeIfDraining(ctx);
    logRequest(ctx, startedAt);
    const { method, route } = requestLabels(ctx);
    ctx.services.metrics.observeRequest(
      method,
      route,
      ctx.status,
      (performance.now() - startedAt) / 1000,
    );
  };
}

/** Keep-alive connections must not outlive a drain: each ends with its current answer. */
function closeIfDraining(ctx: AppContext): void {
  if (ctx.services.drain.draining) ctx.set("Connection", "close");
}
