import type { SubscriptionStatus } from "./schemas/billing";
import { LIVE_STATUSES } from "./subscription-statuses";
import { type BillingPeriod, planPriceCents, type Tier } from "./tiers";

/**
 * Where a subscription stands, read by the settings summary and the dashboard's plan box, so
 * both say the same thing. When several facts hold, the one that decides what happens next
 * wins: a failed payment (the account is about to be downgraded), then a scheduled
 * cancellation (the plan ends), then a pause (no charges until it ends). Facts only: the web
 * words them in the reader's language (web/src/billing/subscription-summary-text.ts).
 */
export type SubscriptionState = "free" | "payment-failed" | "cancelling" | "paused" | "renewing";

export interface PaidPlanPrice {
  tier: Exclude<Tier, "free">;
  period: BillingPeriod;
  /** One billing period's price, in US cents. */
  priceCents: number;
}

export type SubscriptionSummary =
  | { state: "free" }
  /** `date`: when the account is downgraded unless the card is updated. */
  | { state: "payment-failed"; plan: PaidPlanPrice; date: string }
  /** `date`: the day the plan ends. */
  | { state: "cancelling"; plan: PaidPlanPrice; date: string }
  /** `date`: the day the pause ends and billing resumes. */
  | { state: "paused"; plan: PaidPlanPrice; date: string }
  /** `date`: the next renewal, when known. */
  | { state: "renewing"; plan: PaidPlanPrice; date: string | null };

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
  options: { now: Date },
): SubscriptionSummary {
  const tier = status.accountTier;
  if (tier === "free" || !LIVE_STATUSES.has(status.subscriptionStatus)) return { state: "free" };
  const period: BillingPeriod = status.billingPeriod === "annual" ? "annual" : "monthly";
  const plan: PaidPlanPrice = { tier, period, priceCents: planPriceCents(tier, period) };
  if (status.paymentFailureGraceEnd) {
    return { state: "payment-failed", plan, date: status.paymentFailureGraceEnd };
  }
  if (status.cancelAtPeriodEnd && status.subscriptionEndDate) {
    return { state: "cancelling", plan, date: status.subscriptionEndDate };
  }
  if (status.pausedUntil && new Date(status.pausedUntil) > options.now) {
    return { state: "paused", plan, date: status.pausedUntil };
  }
  return { state: "renewing", plan, date: status.subscriptionEndDate };
}
