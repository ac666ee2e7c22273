import { buildQueuedExports, expireMailedExports } from "../commands/mailed-exports";
import type { Job } from "./job";

/**
 * Large exports (issue 28): builds the queued ones and mails their links, and deletes those
 * whose 24 hours are over. Every instance runs it; rows are claimed with SKIP LOCKED.
 */
export const dataExportsJob: Job = {
  name: "data-exports",
  intervalMs: 30_000,
  runAtStart: true,
  async run(services) {
    const expired = await expireMailedExports(services);
    const mailed = await buildQueuedExports(services);
    if (expired + mailed > 0) services.logger.info({ expired, mailed }, "data-exports pass");
  },
};
