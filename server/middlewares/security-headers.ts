import type { AppContext } from "../context";

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** The headers every answer carries; set before the handler runs (see below). */
export function securityHeaders(appOrigin: string, secure: boolean): (ctx: AppContext) => void {
  const socketOrigin = appOrigin.replace(/^http/, "ws");
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    // Radix positions popovers with style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self'",
    `connect-src 'self' ${socketOrigin}`,
    "frame-src 'self'",
    // The service worker (/sw.js) and the web app manifests.
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return (ctx) => {
    // Set before the handler runs: error answers get them too, and downloads may tighten CSP.
    ctx.set("X-Content-Type-Options", "nosniff");
    ctx.set("Referrer-Policy", "strict-origin-when-cross-origin");
    ctx.set("X-Frame-Options", "DENY");
    if (ctx.path.startsWith("/api/")) {
      // JSON is never a page: nothing may load in it. (Also shorter on the hottest path.)
      ctx.set("Content-Security-Policy", API_CSP);
    } else {
      ctx.set("Cross-Origin-Opener-Policy", "same-origin");
      ctx.set("Content-Security-Policy", csp);
    }
    if (secure) ctx.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  };
}
