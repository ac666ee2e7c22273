import { deleteExpiredFeedbackLinks } from "../commands/issue-feedback-links";
import type { Job } from "./job";

/**
 * Deletes email links past their 7 days (used or not); until then a used link's page can
 * still say that it was used. Every instance may run it: the delete is the same whoever runs it.
 */
export const feedbackLinksCleanupJob: Job = {
  name: "feedback-links-cleanup",
  intervalMs: 60 * 60_000,
  async run(services) {
    const deleted = await deleteExpiredFeedbackLinks(services.db, services.clock.now());
    if (deleted > 0) services.logger.info({ deleted }, "feedback links cleanup");
  },
};
