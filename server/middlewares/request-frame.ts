import type { Next } from "koa";
import type { AppContext } from "../context";
import { healthCheck, isHealthCheck } from "../routes/health";
import { preventApiCaching } from "./api-cache-control";
import { presentApiNotFound, presentError } from "./errors";
import { jsonBody } from "./json-body";
import { refuseMalformedPath } from "./malformed-path";
import { logRequest } from "./request-log";
import { sameOrigin } from "./same-origin";
import { securityHeaders } from "./security-headers";

export interface RequestFrameOptions {
  appOrigin: string;
  allowedOrigins: string[];
  secureCookies: boolean;
  /** Paths whose body their handler reads raw and that need no Origin (signed webhooks). */
  rawBodyPaths: string[];
}

/**
 * What every request goes through before its route, in order: security headers, the health
 * check (unlogged), the cross-site check, the JSON body (then koa-session, mounted next); and after it: the JSON
 * 404 of the API, error answers, one log line with the final status. One middleware calling
 * plain functions rather than seven Koa layers, because each layer's promise plumbing cost a
 * few microseconds per request (a third of GET /api/user's time; see docs/benchmarks.md).
 */
export function requestFrame(options: RequestFrameOptions) {
  const setSecurityHeaders = securityHeaders(options.appOrigin, options.secureCookies);
  const refuseCrossSite = sameOrigin(options.allowedOrigins, options.rawBodyPaths);
  const readJsonBody = jsonBody(undefined, options.rawBodyPaths);

  return async function frame(ctx: AppContext, next: Next): Promise<void> {
    setSecurityHeaders(ctx);
    if (isHealthCheck(ctx)) return healthCheck(ctx);
    const startedAt = performance.now();
    try {
      refuseMalformedPath(ctx);
      refuseCrossSite(ctx);
      // Awaited only when there is something to wait for (a body to read).
      const reading = readJsonBody(ctx);
      if (reading) await reading;
      await next();
      presentApiNotFound(ctx);
    } catch (error) {
      presentError(ctx, error);
    }
    preventApiCaching(ctx);
    logRequest(ctx, startedAt);
  };
}
