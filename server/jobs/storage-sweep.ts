import { ADVISORY_LOCKS, withAdvisoryLock } from "../db/advisory-lock";
import { sweepStorage } from "../storage/storage-sweep";
import type { Job } from "./job";

/**
 * Removes half-written uploads and stored files no row names, once an hour old: at start-up
 * (what a crash left behind) and hourly. One instance sweeps at a time (an advisory lock).
 */
export const storageSweepJob: Job = {
  name: "storage-sweep",
  intervalMs: 60 * 60_000,
  runAtStart: true,
  async run(services) {
    const result = await withAdvisoryLock(services.db, ADVISORY_LOCKS.storageSweep, (db) =>
      sweepStorage(services, db),
    );
    if (result) services.logger.info(result, "storage sweep done");
  },
};
