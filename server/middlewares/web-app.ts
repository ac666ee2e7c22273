import { createReadStream, existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import type { Next } from "koa";
import { firstScreenOf, firstScreenPreload } from "../../shared/first-screen";
import compressibleExtensions from "../../shared/precompressed-extensions.json";
import type { AppContext } from "../context";
import { acceptedEncodings, type StoredEncoding } from "./accept-encoding";

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".webmanifest": "application/manifest+json",
  ".json": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

/** What the build wrote .br and .gz copies of (scripts/lib/precompress.mjs reads the same list). */
const PRECOMPRESSED = new Set(compressibleExtensions);
const SUFFIX: Record<StoredEncoding, string> = { br: ".br", gzip: ".gz" };

/**
 * Checked with the server on every load: the service worker (a new build must replace the old
 * one at once) and the manifests that name it.
 */
const ALWAYS_FRESH = new Set(["/sw.js", "/manifest.webmanifest", "/client.webmanifest"]);

/** The client portal has its own page so that clients load none of the dashboard. */
function pageFor(requestPath: string): string {
  return /^\/(client|invite)(\/|$)/.test(requestPath) ? "client.html" : "index.html";
}

/**
 * Serves the built web app: hashed assets cached for a year, and the right HTML page for any
 * other GET (the front end's router shows the not-found screen for unknown paths). Text
 * files go out as the build compressed them (name.br, name.gz) when Accept-Encoding allows:
 * nothing is compressed per request.
 */
export function webApp(distDir: string) {
  const root = path.resolve(distDir);
  return async (ctx: AppContext, next: Next) => {
    if ((ctx.method !== "GET" && ctx.method !== "HEAD") || ctx.path.startsWith("/api/"))
      return next();
    const asset = path.resolve(root, `.${decodeURIComponent(ctx.path)}`);
    if (asset.startsWith(`${root}${path.sep}`) && !asset.endsWith(".html")) {
      const info = await stat(asset).catch(() => null);
      if (info?.isFile()) {
        const immutable = ctx.path.startsWith("/assets/");
        await sendFile(
          ctx,
          asset,
          immutable
            ? "public, max-age=31536000, immutable"
            : ALWAYS_FRESH.has(ctx.path)
              ? "no-cache"
              : "public, max-age=3600",
        );
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
    // The page's first data (GET /api/portal/{id}, GET /api/dashboard[?client={id}]), named so
    // that the browser requests it together with the scripts rather than after running them
    // (a round trip and the scripts' download earlier on a phone). The page's bootstrap module
    // (web/src/api/first-screen.ts) then takes the preloaded answer: it asks for the same URL
    // the same way (credentials included, no extra headers), which is what lets the two match.
    const screen = firstScreenOf(ctx.path, ctx.querystring);
    if (screen) ctx.set("Link", firstScreenPreload(screen));
    await sendFile(ctx, page, "no-cache");
  };
}

/**
 * `file`, or its brotli or gzip copy: the best the request accepts that the build made (a
 * file under 1 KB has none). Vary: Accept-Encoding on every compressible file, so that a
 * cache never hands a brotli body to a client that did not ask for one. The ETag names the
 * variant's bytes (an HTML page, fetched with no-cache, comes back as 304 when unchanged).
 */
async function sendFile(ctx: AppContext, file: string, cacheControl: string): Promise<void> {
  const extension = path.extname(file);
  const compressible = PRECOMPRESSED.has(extension);
  let chosen = { path: file, encoding: null as StoredEncoding | null };
  if (compressible) {
    ctx.vary("Accept-Encoding");
    for (const encoding of acceptedEncodings(ctx.get("Accept-Encoding"))) {
      const candidate = `${file}${SUFFIX[encoding]}`;
      if (existsSync(candidate)) {
        chosen = { path: candidate, encoding };
        break;
      }
    }
  }
  const info = await stat(chosen.path);
  ctx.status = 200;
  ctx.type = CONTENT_TYPES[extension] ?? "application/octet-stream";
  ctx.set("Cache-Control", cacheControl);
  ctx.set(
    "ETag",
    `"${info.mtimeMs.toString(36)}-${info.size.toString(36)}${chosen.encoding ? `-${chosen.encoding}` : ""}"`,
  );
  ctx.lastModified = info.mtime;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  if (chosen.encoding) ctx.set("Content-Encoding", chosen.encoding);
  if (ctx.method === "GET") ctx.body = createReadStream(chosen.path);
  ctx.length = info.size;
}
