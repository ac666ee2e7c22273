import { purgeDeletedClients } from "../commands/purge-deleted-clients";
import type { Job } from "./job";

/**
 * Removes for good the deleted clients whose workspace's days have passed (issue 28). Every
 * instance runs it: the rows are shared out with SKIP LOCKED, so each client goes once.
 */
export const deletedClientsPurgeJob: Job = {
  name: "deleted-clients-purge",
  // A client past its date is hidden already (not listed, not restorable); its bytes go soon.
  intervalMs: 10 * 60_000,
  runAtStart: true,
  async run(services) {
    const purged = await purgeDeletedClients(services);
    if (purged > 0) services.logger.info({ purged }, "deleted clients purged");
  },
};
