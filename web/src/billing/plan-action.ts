import type { SubscriptionStatus } from "../../../shared/schemas/billing";
import { type BillingPeriod, TIER_CONFIG, TIERS, type Tier } from "../../../shared/tiers";

/**
 * What a pricing card's button does for the visitor, relative to the owner's current plan
 * (free < pro < agency). Anonymous visitors and owners on free keep the spec's checkout path;
 * between paid plans the subscription changes in place (prorated); a paid plan to free is the
 * cancellation flow.
 */
export type PlanActionKind =
  | "current"
  | "checkout"
  | "change"
  | "cancel"
  | "none"
  /** A change while a payment fails: the card comes first (the server refuses the change). */
  | "update-payment";

export interface PlanAction {
  kind: PlanActionKind;
  label: string;
  disabled: boolean;
  /** Said under the button when it needs saying (e.g. a downgrade already scheduled). */
  note?: string;
}

const rank = (tier: Tier) => TIERS.indexOf(tier);

export type OwnerPlan = Pick<
  SubscriptionStatus,
  | "accountTier"
  | "billingPeriod"
  | "cancelAtPeriodEnd"
  | "subscriptionEndDate"
  | "paymentFailureGraceEnd"
>;

/** `status` is null for an anonymous visitor. */
export function planAction(
  tier: Tier,
  period: BillingPeriod,
  status: OwnerPlan | null,
): PlanAction {
  const action = actionFor(tier, period, status);
  if (action.kind !== "change" || !status?.paymentFailureGraceEnd) return action;
  return {
    kind: "update-payment",
    label: "Update payment method",
    disabled: false,
    note: "Your last payment failed: update your payment method before changing plan.",
  };
}

function actionFor(tier: Tier, period: BillingPeriod, status: OwnerPlan | null): PlanAction {
  // Anonymous: the spec's texts (Free is never chosen here).
  if (!status) {
    return tier === "free"
      ? { kind: "none", label: "Get Started", disabled: true }
      : { kind: "checkout", label: "Get Started", disabled: false };
  }
  const current = status.accountTier;
  const currentPeriod: BillingPeriod = status.billingPeriod === "annual" ? "annual" : "monthly";
  if (tier === current) {
    if (tier === "free" || period === currentPeriod)
      return { kind: "current", label: "Current Plan", disabled: true };
    return {
      kind: "change",
      label: period === "annual" ? "Switch to Annual" : "Switch to Monthly",
      disabled: false,
    };
  }
  if (tier === "free") {
    if (status.cancelAtPeriodEnd) {
      return {
        kind: "cancel",
        label: "Downgrade",
        disabled: true,
        note: status.subscriptionEndDate
          ? `Your plan moves to Free on ${new Date(status.subscriptionEndDate).toLocaleDateString("en-US", { dateStyle: "medium" })}.`
          : "Your plan moves to Free at the end of this period.",
      };
    }
    return { kind: "cancel", label: "Downgrade", disabled: false };
  }
  const label = rank(tier) > rank(current) ? "Upgrade" : "Downgrade";
  return { kind: current === "free" ? "checkout" : "change", label, disabled: false };
}

export const planName = (tier: Tier) => TIER_CONFIG[tier].name;
