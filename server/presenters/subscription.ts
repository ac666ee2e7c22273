import type { SubscriptionStatus } from "../../shared/schemas/billing";
import type { User } from "../models";

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

/** Every billing field that leaves the server, listed. */
export function presentSubscriptionStatus(user: User, testMode: boolean): SubscriptionStatus {
  return {
    accountTier: user.accountTier,
    subscriptionStatus: user.subscriptionStatus,
    subscriptionEndDate: iso(user.subscriptionEndDate),
    paymentFailureGraceEnd: iso(user.paymentFailureGraceEnd),
    billingPeriod:
      user.billingPeriod === "annual" || user.billingPeriod === "monthly"
        ? user.billingPeriod
        : null,
    cancelAtPeriodEnd: user.cancelAtPeriodEnd,
    pausedUntil: iso(user.pausedUntil),
    retentionDiscountUsed: user.retentionDiscountAt !== null,
    testMode,
  };
}
