import type { Job } from "./job";

/**
 * Runs the domain events still in the outbox (server/domain-events): those whose instance died
 * between commit and its listeners, and those whose listener failed. Fresh events do not wait
 * for it: the instance that wrote them runs them at once.
 */
export const domainEventsJob: Job = {
  name: "domain-events",
  intervalMs: 5_000,
  runAtStart: true,
  async run(services) {
    const result = await services.events.dispatchDue();
    if (result.ran + result.failed > 0) services.logger.info(result, "domain events: job pass");
  },
};
