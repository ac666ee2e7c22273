import type { Job } from "./job";

/**
 * Sends the outbox's due mail (server/mail/outbox.ts): retries, and mail whose instance died
 * after commit. Fresh mail does not wait for it: the instance that wrote it sends it at once.
 */
export const mailOutboxJob: Job = {
  name: "mail-outbox",
  intervalMs: 5_000,
  runAtStart: true,
  async run(services) {
    const result = await services.outbox.deliverDue();
    if (result.retrying + result.dead > 0) services.logger.info(result, "mail outbox pass");
  },
};

/** Dead mail (given up after a day) is kept 30 days for an operator to look at, then deleted. */
export const deadMailCleanupJob: Job = {
  name: "dead-mail-cleanup",
  intervalMs: 60 * 60_000,
  runAtStart: true,
  run: (services) => services.outbox.forgetOldDead(),
};
