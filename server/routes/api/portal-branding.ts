import { Router } from "@koa/router";
import { portalBrandingQuery } from "../../../shared/schemas/branding";
import { portalBranding, publicLogo } from "../../commands/portal-branding";
import { notFound } from "../../errors";
import { StoredFile } from "../../models";
import { LIMITS } from "../../security/rate-limiter";
import type { AreaRouter } from "../area-router";

const router: AreaRouter = new Router({ prefix: "/api" });

/**
 * Public: the branding of a client's signed-out and sign-in pages (?client=, ?invite= or
 * ?code=). Anything unknown or malformed answers the defaults, with 200, like a real one.
 */
router.get("/portal-branding", async (ctx) => {
  const parsed = portalBrandingQuery.safeParse(ctx.query);
  const query = parsed.success ? parsed.data : {};
  // A short code is the one guessable key (46 bits): it spends the short links' budget.
  if (query.code !== undefined) {
    await ctx.services.rateLimiter.consume(`shortLinkPerIp:${ctx.ip}`, LIMITS.shortLinkPerIp);
  }
  ctx.body = await portalBranding(ctx.services, query);
});

/** Public: an agency owner's current company logo; 404 for every other name. */
router.get("/portal-branding/logo/:filename", async (ctx) => {
  const name = await publicLogo(ctx.services, ctx.params.filename ?? "");
  const file = name
    ? await StoredFile.query(ctx.services.db).findOne({ storedName: name })
    : undefined;
  const stored = name ? await ctx.services.storage.stat(name) : null;
  if (!name || !file || !stored) throw notFound();
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Content-Security-Policy", "sandbox; default-src 'none'; frame-ancestors 'none'");
  // A new logo gets a new name; a downgrade stops serving it within the hour.
  ctx.set("Cache-Control", "public, max-age=3600");
  // HEAD gets the headers with no body: the status is set here, not by assigning one.
  ctx.status = 200;
  ctx.type = file.contentType.startsWith("image/") ? file.contentType : "application/octet-stream";
  ctx.length = stored.size;
  if (ctx.method === "GET") ctx.body = await ctx.services.storage.get(name);
});

export default router;
