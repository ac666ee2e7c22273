import { deleteEndedWindows } from "../security/rate-limiter";
import type { Job } from "./job";

/**
 * Deletes the rate-limit windows that have ended (PostgreSQL; PGlite counts in memory). Every
 * instance may run it: the delete is the same whoever runs it, so no lock is taken.
 */
export const rateLimitsCleanupJob: Job = {
  name: "rate-limits-cleanup",
  intervalMs: 10 * 60_000,
  async run(services) {
    const deleted = await deleteEndedWindows(services.db, services.clock.now());
    if (deleted > 0) services.logger.info({ deleted }, "rate limits cleanup");
  },
};
