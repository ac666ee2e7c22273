import type { SubscriptionStatus } from "../../../shared/schemas/billing";
import { type BillingPeriod, TIER_CONFIG, TIERS, type Tier } from "../../../shared/tiers";
import { dateTimeFormat } from "../i18n/formats";
import { i18n } from "../i18n/i18n";

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
    label: i18n.t("Update payment method", { ns: "billing" }),
    disabled: false,
    note: i18n.t("Your last payment failed: update your payment method before changing plan.", {
      ns: "billing",
    }),
  };
}

function actionFor(tier: Tier, period: BillingPeriod, status: OwnerPlan | null): PlanAction {
  // Anonymous: the spec's texts (Free is never chosen here).
  if (!status) {
    const label = i18n.t("Get Started", { ns: "billing" });
    return tier === "free"
      ? { kind: "none", label, disabled: true }
      : { kind: "checkout", label, disabled: false };
  }
  const current = status.accountTier;
  const currentPeriod: BillingPeriod = status.billingPeriod === "annual" ? "annual" : "monthly";
  if (tier === current) {
    if (tier === "free" || period === currentPeriod)
      return { kind: "current", label: i18n.t("Current Plan", { ns: "billing" }), disabled: true };
    return {
      kind: "change",
      label:
        period === "annual"
          ? i18n.t("Switch to Annual", { ns: "billing" })
          : i18n.t("Switch to Monthly", { ns: "billing" }),
      disabled: false,
    };
  }
  const downgrade = i18n.t("Downgrade", { ns: "billing" });
  if (tier === "free") {
    if (status.cancelAtPeriodEnd) {
      return {
        kind: "cancel",
        label: downgrade,
        disabled: true,
        note: status.subscriptionEndDate
          ? i18n.t("Your plan moves to Free on {{date}}.", {
              ns: "billing",
              date: dateTimeFormat({ dateStyle: "medium" }).format(
                new Date(status.subscriptionEndDate),
              ),
            })
          : i18n.t("Your plan moves to Free at the end of this period.", { ns: "billing" }),
      };
    }
    return { kind: "cancel", label: downgrade, disabled: false };
  }
  const label = rank(tier) > rank(current) ? i18n.t("Upgrade", { ns: "billing" }) : downgrade;
  return { kind: current === "free" ? "checkout" : "change", label, disabled: false };
}

export const planName = (tier: Tier) => TIER_CONFIG[tier].name;
