import { timingSafeEqual } from "node:crypto";
import type { AppContext } from "../context";
import type { FramePage } from "../middlewares/request-frame";
import { msg } from "../../shared/i18n/msg";
import { readable } from "../i18n/readable";

/**
 * GET /metrics: the Prometheus text format, for a scraper holding METRICS_TOKEN
 * (Authorization: Bearer). Without METRICS_TOKEN there is no such page (404); a missing or
 * wrong token is 401. Not logged or counted, like the probes.
 */
export async function metricsPage(ctx: AppContext): Promise<void> {
  const token = ctx.services.config.metricsToken;
  ctx.set("Cache-Control", "no-store");
  if (!token) {
    ctx.status = 404;
    ctx.body = { message: readable(ctx, msg("Not found")) };
    return;
  }
  if (!sameToken(bearerOf(ctx.get("Authorization")), token)) {
    ctx.status = 401;
    ctx.set("WWW-Authenticate", 'Bearer realm="metrics"');
    ctx.body = { message: readable(ctx, msg("A valid metrics token is required")) };
    return;
  }
  const metrics = ctx.services.metrics;
  ctx.type = metrics.registry.contentType;
  ctx.body = await metrics.exposition();
}

const bearerOf = (header: string) => /^Bearer (.+)$/i.exec(header)?.[1]?.trim() ?? "";

/** Compared in constant time: the answer must not tell how much of a guess was right. */
function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const isMetricsPage = (ctx: AppContext) => ctx.path === "/metrics" && ctx.method === "GET";

/** /metrics, for the request frame (middlewares/request-frame.ts). */
export const metricsFramePage: FramePage = { matches: isMetricsPage, answer: metricsPage };
