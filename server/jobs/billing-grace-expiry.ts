import { expireGracePeriods } from "../billing/expire-grace-periods";
import { billingProvider } from "../billing/provider";
import { remindFailedPayments } from "../billing/remind-failed-payments";
import { endCancelledTestSubscriptions } from "../billing/test-mode-period-end";
import type { Job } from "./job";

/**
 * The billing job: the reminder 4 hours before a failed payment's downgrade, grace expiry, and
 * in test mode the end of cancelled periods.
 */
export const graceExpiryJob: Job = {
  name: "billing-grace-expiry",
  intervalMs: 60_000,
  run: async (services) => {
    // Billing off (self-hosted): every owner has every feature, so no plan ends.
    if (services.config.billingMode === "off") return;
    await remindFailedPayments(services);
    await expireGracePeriods(services);
    if (billingProvider(services).testMode) await endCancelledTestSubscriptions(services);
  },
};
