import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { BillingActionAnswer } from "../../../shared/schemas/billing";
import { type BillingPeriod, planPriceCents, TIER_CONFIG, type Tier } from "../../../shared/tiers";
import { apiPost, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";
import { useAccountTier } from "./account-tier-query";
import type { PlanAction } from "./plan-action";
import type { SubscriptionStatus } from "./subscription-status-query";

export interface PlanChoice {
  tier: Tier;
  period: BillingPeriod;
  action: PlanAction;
}

const priceText = (tier: Tier, period: BillingPeriod) =>
  `$${planPriceCents(tier, period) / 100}/${period === "annual" ? "year" : "month"}`;

const dateText = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { dateStyle: "medium" });

/**
 * Asks before moving the subscription to another paid plan, saying what happens: the new
 * price from today, the difference prorated, and what the new plan's limits mean.
 */
export function PlanChangeDialog({
  choice,
  status,
  onClose,
}: {
  choice: PlanChoice | null;
  status: SubscriptionStatus;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { data: tierInfo } = useAccountTier();
  const change = useMutation({
    mutationFn: (next: PlanChoice) =>
      apiPost<BillingActionAnswer>("/api/subscription/change-plan", {
        tier: next.tier,
        period: next.period,
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(queryKeys.subscriptionStatus, answer.status);
      for (const queryKey of [queryKeys.accountTier, queryKeys.user]) {
        void queryClient.invalidateQueries({ queryKey });
      }
      toast({ title: "Plan changed", description: answer.message, variant: "success" });
      onClose();
    },
    onError: (error) =>
      toast({
        title: "Couldn't change your plan",
        description: serverMessage(error, "Please try again"),
        variant: "destructive",
      }),
  });

  const currentPeriod: BillingPeriod = status.billingPeriod === "annual" ? "annual" : "monthly";
  const from = status.accountTier;
  const to = choice?.tier ?? from;
  const toName = TIER_CONFIG[to].name;
  const fromName = TIER_CONFIG[from].name;
  const periodChanges = choice !== null && choice.period !== currentPeriod;
  const title = !choice
    ? ""
    : to === from
      ? `${choice.action.label} billing?`
      : `${choice.action.label} to ${toName}?`;
  const confirmLabel = !choice
    ? ""
    : to === from
      ? choice.action.label
      : `${choice.action.label} to ${toName}`;
  const limit = TIER_CONFIG[to].clientLimit;
  const overLimit = limit !== null && tierInfo !== undefined && tierInfo.clientCount > limit;

  return (
    <ConfirmDialog
      open={choice !== null}
      onOpenChange={(open) => !open && onClose()}
      title={title}
      confirmLabel={confirmLabel}
      busyLabel="Changing plan..."
      busy={change.isPending}
      onConfirm={() => choice && change.mutate(choice)}
    >
      {choice && (
        <div className="plan-change__facts">
          <dl className="plan-change__prices">
            <dt>Now</dt>
            <dd>
              {fromName} · {priceText(from, currentPeriod)}
            </dd>
            <dt>From today</dt>
            <dd>
              {toName} · {priceText(to, choice.period)}
            </dd>
          </dl>
          {periodChanges ? (
            <p>
              {choice.period === "annual" ? "Annual" : "Monthly"} billing starts today: you are
              charged {priceText(to, choice.period).replace("/", " per ")} now, less a prorated
              credit for the unused part of your current period.
            </p>
          ) : (
            <p>
              The change is prorated: the unused time on {fromName} becomes a credit, and the rest
              of this billing period is charged at the {toName} price on your next invoice
              {status.subscriptionEndDate ? ` (${dateText(status.subscriptionEndDate)})` : ""}.
            </p>
          )}
          {overLimit && tierInfo && (
            <p>
              {toName} allows up to {limit} clients and you have {tierInfo.clientCount}: they all
              stay, but you can't add more.
            </p>
          )}
          {status.cancelAtPeriodEnd && (
            <p>Your scheduled cancellation is withdrawn: the plan renews.</p>
          )}
        </div>
      )}
    </ConfirmDialog>
  );
}
