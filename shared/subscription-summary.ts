import type { SubscriptionStatus } from "./schemas/billing";
import { LIVE_STATUSES } from "./subscription-statuses";
import { planPriceCents, TIER_CONFIG } from "./tiers";

/**
 * One sentence for where a subscription stands, read by the settings summary and the
 * dashboard's plan box, so both say the same thing. When several facts hold, the one that
 * decides what happens next wins: a failed payment (the account is about to be downgraded),
 * then a scheduled cancellation (the plan ends), then a pause (no charges until it ends).
 */
export type SubscriptionState = "free" | "payment-failed" | "cancelling" | "paused" | "renewing";

export interface SubscriptionSummary {
  state: SubscriptionState;
  /** E.g. "Paused until Jan 23, 2027; billing resumes then". */
  headline: string;
  /** E.g. "Pro plan · $10/month", or "Free plan". */
  plan: string;
}

type SummaryFacts = Pick<
  SubscriptionStatus,
  | "accountTier"
  | "subscriptionStatus"
  | "subscriptionEndDate"
  | "paymentFailureGraceEnd"
  | "billingPeriod"
  | "cancelAtPeriodEnd"
  | "pausedUntil"
>;

export function subscriptionSummary(
  status: SummaryFacts,
  options: { now: Date; timeZone?: string },
): SubscriptionSummary {
  const date = (iso: string) =>
    new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium", timeZone: options.timeZone });
  const dateTime = (iso: string) =>
    new Date(iso).toLocaleString("en-US", {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: options.timeZone,
    });
  const tier = status.accountTier;
  if (tier === "free" || !LIVE_STATUSES.has(status.subscriptionStatus)) {
    return { state: "free", headline: "No paid subscription", plan: "Free plan" };
  }
  const annual = status.billingPeriod === "annual";
  const plan = `${TIER_CONFIG[tier].name} plan · $${planPriceCents(tier, annual ? "annual" : "monthly") / 100}/${annual ? "year" : "month"}`;
  if (status.paymentFailureGraceEnd) {
    return {
      state: "payment-failed",
      headline: `Payment failed: downgraded on ${dateTime(status.paymentFailureGraceEnd)} unless the card is updated`,
      plan,
    };
  }
  if (status.cancelAtPeriodEnd && status.subscriptionEndDate) {
    return {
      state: "cancelling",
      headline: `Cancels on ${date(status.subscriptionEndDate)}`,
      plan,
    };
  }
  if (status.pausedUntil && new Date(status.pausedUntil) > options.now) {
    return {
      state: "paused",
      headline: `Paused until ${date(status.pausedUntil)}; billing resumes then`,
      plan,
    };
  }
  return {
    state: "renewing",
    headline: status.subscriptionEndDate
      ? `Renews on ${date(status.subscriptionEndDate)}`
      : "Active",
    plan,
  };
}
