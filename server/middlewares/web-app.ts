import { createReadStream, existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Next } from "koa";
import type { AppContext } from "../context";

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".webmanifest": "application/manifest+json",
};

/** The client portal has its own page so that clients load none of the dashboard. */
function pageFor(requestPath: string): string {
  return /^\/(client|invite)(\/|$)/.test(requestPath) ? "client.html" : "index.html";
}

/**
 * Serves the built web app: hashed assets cached for a year, and the right HTML page for any
 * other GET (the front end's router shows the not-found screen for unknown paths).
 */
export function webApp(distDir: string) {
  const root = path.resolve(distDir);
  return async (ctx: AppContext, next: Next) => {
    if ((ctx.method !== "GET" && ctx.method !== "HEAD") || ctx.path.startsWith("/api/")) return next();
    const asset = path.resolve(root, `.${decodeURIComponent(ctx.path)}`);
    if (asset.startsWith(`${root}${path.sep}`) && !asset.endsWith(".html")) {
      const info = await stat(asset).catch(() => null);
      if (info?.isFile()) {
        ctx.type = CONTENT_TYPES[path.extname(asset)] ?? "application/octet-stream";
        ctx.length = info.size;
        ctx.set(
          "Cache-Control",
          ctx.path.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "public, max-age=3600",
        );
        ctx.body = createReadStream(asset);
        return;
      }
    }
    const page = path.join(root, pageFor(ctx.path));
    if (!existsSync(page)) {
      ctx.status = 503;
      ctx.type = "text/plain";
      ctx.body = "The web app is not built yet. Run `npm run build` (npm start does it for you).";
      return;
    }
    ctx.type = "text/html; charset=utf-8";
    ctx.set("Cache-Control", "no-cache");
    ctx.body = createReadStream(page);
  };
}
