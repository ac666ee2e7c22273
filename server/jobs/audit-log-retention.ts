import { AUDIT_KEEP_DAYS, deleteExpiredAuditEntries } from "../audit/record-audit";
import type { Job } from "./job";

/**
 * Deletes audit entries older than AUDIT_KEEP_DAYS (400 days). Every instance may run it: the
 * delete is the same whoever runs it, so no lock is taken.
 */
export const auditLogRetentionJob: Job = {
  name: "audit-log-retention",
  intervalMs: 6 * 3_600_000,
  runAtStart: true,
  async run(services) {
    const deleted = await deleteExpiredAuditEntries(services.db, services.clock.now());
    if (deleted > 0)
      services.logger.info({ deleted, keptDays: AUDIT_KEEP_DAYS }, "audit log retention");
  },
};
