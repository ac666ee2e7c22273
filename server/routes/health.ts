import type { AppContext } from "../context";
import { RETRY_AFTER_SECONDS } from "../db/database-unavailable";
import type { FramePage } from "../middlewares/request-frame";

/** A probe wants an answer quickly: each dependency gets this long to answer. */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * GET /healthz: liveness. 200 as long as the process serves HTTP, whatever its dependencies:
 * an orchestrator restarts an instance whose /healthz fails, and restarting every instance
 * because the database is away would only add a cold start to the outage. Not logged.
 */
export function healthCheck(ctx: AppContext): void {
  ctx.set("Cache-Control", "no-store");
  ctx.body = { status: "ok" };
}

/**
 * GET /readyz: readiness, for the balancer. 200 {"status":"ready"} when the database answers
 * `select 1` and the storage its probe, each within PROBE_TIMEOUT_MS (checked at once, so the
 * answer takes at most that long); otherwise 503 with Retry-After and a {message} naming what
 * is down. 503 "draining" as soon as a shutdown starts. Not logged; a failure is a warning.
 */
export async function readinessCheck(ctx: AppContext): Promise<void> {
  ctx.set("Cache-Control", "no-store");
  const { services } = ctx;
  if (services.drain.draining) return notReady(ctx, "draining", "Shutting down");
  const [database, storage] = await Promise.all([
    withinProbeTimeout(() => services.db.raw("select 1")),
    withinProbeTimeout(() => services.storage.probe()),
  ]);
  const down = [database && "database", storage && "storage"].filter(Boolean).join(" and ");
  if (!down) {
    ctx.body = { status: "ready" };
    return;
  }
  services.logger.warn({ database, storage }, `readiness check: ${down} unreachable`);
  notReady(ctx, "unavailable", `${capitalized(down)} unreachable`);
}

function notReady(ctx: AppContext, status: "draining" | "unavailable", message: string): void {
  ctx.status = 503;
  ctx.set("Retry-After", String(RETRY_AFTER_SECONDS));
  ctx.body = { status, message };
}

/** undefined when `check` resolves in time, else why not (its error, or the timeout). */
async function withinProbeTimeout(check: () => Promise<unknown>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)),
          PROBE_TIMEOUT_MS,
        );
      }),
    ]);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const isProbe = (ctx: AppContext, path: string) =>
  ctx.path === path && (ctx.method === "GET" || ctx.method === "HEAD");

export const isHealthCheck = (ctx: AppContext) => isProbe(ctx, "/healthz");
export const isReadinessCheck = (ctx: AppContext) => isProbe(ctx, "/readyz");

/** /healthz and /readyz, for the request frame (middlewares/request-frame.ts). */
export const probePages: FramePage[] = [
  { matches: isHealthCheck, answer: healthCheck },
  { matches: isReadinessCheck, answer: readinessCheck },
];
