import type { AppContext } from "../context";

const INFO = 30;

/**
 * An invite link's token, a short code or an email's Approve / Needs Work token is a key to a
 * conversation: the logs (this line, and the error lines of server/middlewares/errors.ts) keep
 * only the route.
 */
const SECRET_SEGMENT = /\/(invite|short-link|feedback-links|feedback)\/[^/]+/g;
export const loggedPath = (path: string) => path.replace(SECRET_SEGMENT, "/$1/[redacted]");

/**
 * One line per request once its answer (error answers included) is settled, in the logger's
 * JSON shape: {level, time, method, path, status, ms, user, msg}. Its fields are fixed and
 * hold no secrets, so it is formatted here rather than by pino's generic serializer, which
 * cost a tenth of a GET /api/user (docs/benchmarks.md).
 */
export function logRequest(ctx: AppContext, startedAt: number): void {
  const logger = ctx.services.logger;
  if (!logger.isLevelEnabled("info")) return;
  const ms = Math.round((performance.now() - startedAt) * 10) / 10;
  const user = ctx.state.user ? `,"user":${JSON.stringify(ctx.state.user.id)}` : "";
  logger.writeLine(
    `{"level":${INFO},"time":${Date.now()},"method":${JSON.stringify(ctx.method)},"path":${JSON.stringify(loggedPath(ctx.path))},"status":${ctx.status},"ms":${ms}${user},"msg":"request"}\n`,
  );
}
