import type { AppContext } from "../context";
import { forbidden } from "../errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses cross-site writes (CSRF), multipart and text/plain included: a browser names the
 * requesting site in Sec-Fetch-Site or Origin. Requests with neither come from non-browser
 * callers, which carry no ambient cookies of our users.
 */
export function sameOrigin(
  allowedOrigins: string[],
  exemptPaths: string[] = [],
): (ctx: AppContext) => void {
  const allowed = new Set(allowedOrigins);
  return (ctx) => {
    if (SAFE_METHODS.has(ctx.method) || exemptPaths.includes(ctx.path)) return;
    const fetchSite = ctx.get("Sec-Fetch-Site");
    const origin = ctx.get("Origin");
    if (origin) {
      if (!allowed.has(origin)) throw forbidden("Cross-site request refused");
    } else if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") {
      throw forbidden("Cross-site request refused");
    }
  };
}
