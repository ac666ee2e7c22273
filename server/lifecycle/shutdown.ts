import type { BufferedLogDestination } from "../log-destination";
import type { Logger } from "../logger";
import { drain, type RunningInstance } from "./drain";

/** A drain that takes longer than this exits 1 (orchestrators kill at 30 s; balancers wait less). */
export const DRAIN_DEADLINE_MS = 10_000;

/**
 * On SIGTERM or SIGINT: drains (drain.ts) and exits 0, or exits 1 once DRAIN_DEADLINE_MS has
 * passed. The log is written out before either exit.
 */
export function exitOnSignals(
  instance: RunningInstance,
  logger: Logger,
  logLines: BufferedLogDestination,
): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const forced = setTimeout(() => {
      logger.error(
        { deadlineMs: DRAIN_DEADLINE_MS, requests: instance.requests.size },
        "drain too slow: exiting",
      );
      logLines.flushSync();
      process.exit(1);
    }, DRAIN_DEADLINE_MS);
    forced.unref();
    try {
      await drain(instance);
    } catch (error) {
      logger.error({ err: error }, "drain failed");
      logLines.flushSync();
      process.exit(1);
    }
    logger.info("stopped");
    // Waits for a write still under way too, which flushSync() would leave behind.
    logger.flush(() => process.exit(0));
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
