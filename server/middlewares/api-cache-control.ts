import type { AppContext } from "../context";

/**
 * API answers are about one user at one moment: no cache (browser, proxy, or the desktop app's
 * HTTP cache) may keep them. A successful answer that set its own policy keeps it (downloads:
 * a stored name's bytes never change); every error answer is no-store.
 */
export function preventApiCaching(ctx: AppContext): void {
  if (!ctx.path.startsWith("/api/")) return;
  if (ctx.status < 400 && ctx.response.get("Cache-Control")) return;
  ctx.set("Cache-Control", "no-store");
}
