import type { Next } from "koa";
import type { AppContext } from "../context";
import type { Logger } from "../logger";

/**
 * One line per request. Its fields are fixed and hold no secrets, so it skips the logger's
 * redaction, which would otherwise cost a few percent of every request.
 */
const requestLoggers = new WeakMap<Logger, Logger>();
function requestLogger(logger: Logger): Logger {
  let child = requestLoggers.get(logger);
  if (!child) {
    child = logger.child({}, { redact: [] });
    requestLoggers.set(logger, child);
  }
  return child;
}

export async function requestLog(ctx: AppContext, next: Next) {
  const started = performance.now();
  try {
    await next();
  } finally {
    requestLogger(ctx.services.logger).info(
      {
        method: ctx.method,
        path: ctx.path,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        user: ctx.state.user?.id,
      },
      "request",
    );
  }
}
