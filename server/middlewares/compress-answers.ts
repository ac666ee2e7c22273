import zlib from "node:zlib";
import compress from "koa-compress";
import type { Next } from "koa";
import type { AppContext } from "../context";

/** Below about this size a compressed answer saves less than it costs (a TCP packet or so). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Compresses the API's JSON answers of COMPRESS_THRESHOLD_BYTES or more (koa-compress): brotli
 * at quality 4 (its authors' default: a few times faster than the top qualities for most of
 * the gain on small JSON), else gzip, else as they are. Only JSON: user files downloaded
 * from /api/download are images, PDFs and archives, compressed already, streamed with their
 * length and byte ranges, and their route turns this off for any type (ctx.compress = false);
 * the built web app is compressed at build time (web-app.ts). The probes and /metrics are
 * answered before this runs (request-frame.ts). Error answers are small and go out as they are.
 *
 * Compressing next to secrets invites BREACH (a cross-site page measuring compressed sizes
 * while injecting guesses). A SameSite=Lax cookie still goes with a top-level cross-site
 * navigation, so an answer to any cross-site request (Sec-Fetch-Site: cross-site, which every
 * current browser sends) goes out uncompressed: there is no size for another site to measure.
 */
export function compressAnswers() {
  const middleware = compress({
    threshold: COMPRESS_THRESHOLD_BYTES,
    filter: (type) => /^application\/json\b/i.test(type),
    br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    gzip: { level: zlib.constants.Z_DEFAULT_COMPRESSION },
    deflate: false,
  });
  // A caller that takes no compression (scripts, probes, load generators) skips it whole: its
  // answer is the same either way, so it needs no Vary either.
  return (ctx: AppContext, next: Next) =>
    ctx.path.startsWith("/api/") &&
    ctx.get("Accept-Encoding") &&
    ctx.get("Sec-Fetch-Site") !== "cross-site"
      ? middleware(ctx, () => next().then(() => serializeOnce(ctx)))
      : next();
}

/**
 * A JSON body as its text, once: koa-compress measures an object body by serializing it and
 * Koa serializes it again to send it, which on the smallest and most frequent answers (under
 * the threshold) would double that cost. The Content-Type stays JSON (Koa keeps a set type).
 */
function serializeOnce(ctx: AppContext): void {
  const { body } = ctx;
  // Plain objects and arrays only: streams, buffers and blobs go out as they are.
  const json =
    Array.isArray(body) ||
    (body !== null && typeof body === "object" && Object.getPrototypeOf(body) === Object.prototype);
  if (json) ctx.body = JSON.stringify(body);
}
