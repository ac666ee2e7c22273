import type { AppContext } from "../context";

/** GET /healthz: 200 when the database answers, 503 otherwise. Not logged (probes are many). */
export async function healthCheck(ctx: AppContext): Promise<void> {
  try {
    await ctx.services.db.raw("select 1");
    ctx.body = { status: "ok" };
  } catch (error) {
    ctx.services.logger.error({ err: error }, "health check failed");
    ctx.status = 503;
    ctx.body = { status: "unavailable", message: "Database unavailable" };
  }
}

export const isHealthCheck = (ctx: AppContext) =>
  ctx.path === "/healthz" && (ctx.method === "GET" || ctx.method === "HEAD");
