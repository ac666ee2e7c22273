import type { AppContext } from "../context";
import { RETRY_AFTER_SECONDS } from "../middlewares/errors";

/** A probe wants an answer quickly: the database gets this long to say `select 1`. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * GET /healthz: 200 when the database answers within PROBE_TIMEOUT_MS, else 503 saying the
 * database is unreachable. Not logged per request (probes are many); a failure is a warning.
 */
export async function healthCheck(ctx: AppContext): Promise<void> {
  ctx.set("Cache-Control", "no-store");
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      ctx.services.db.raw("select 1"),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)),
          PROBE_TIMEOUT_MS,
        );
      }),
    ]);
    ctx.body = { status: "ok" };
  } catch (error) {
    ctx.services.logger.warn({ err: error }, "health check: database unreachable");
    ctx.status = 503;
    ctx.set("Retry-After", String(RETRY_AFTER_SECONDS));
    ctx.body = { status: "unavailable", database: "unreachable", message: "Database unreachable" };
  } finally {
    clearTimeout(timer);
  }
}

export const isHealthCheck = (ctx: AppContext) =>
  ctx.path === "/healthz" && (ctx.method === "GET" || ctx.method === "HEAD");
