import { deleteExpiredKeys } from "../idempotency/claims";
import type { Job } from "./job";

/** Deletes Idempotency-Keys past their 24 hours (claimKey already ignores them). */
export const idempotencyKeysCleanupJob: Job = {
  name: "idempotency-keys-cleanup",
  intervalMs: 60 * 60_000,
  async run(services) {
    const deleted = await deleteExpiredKeys(services.db, services.clock.now());
    if (deleted > 0) services.logger.info({ deleted }, "idempotency keys cleanup");
  },
};
