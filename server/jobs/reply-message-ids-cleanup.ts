import { deleteOldMessageIds } from "../inbound/reply-address";
import type { Job } from "./job";

/**
 * Forgets the Message-IDs of replies received by email more than 30 days ago (they only guard
 * against a relay delivering a mail twice). The delete is the same whoever runs it: no lock.
 */
export const replyMessageIdsCleanupJob: Job = {
  name: "reply-message-ids-cleanup",
  intervalMs: 6 * 60 * 60_000,
  async run(services) {
    const deleted = await deleteOldMessageIds(services.db, services.clock.now());
    if (deleted > 0) services.logger.info({ deleted }, "reply message ids cleanup");
  },
};
