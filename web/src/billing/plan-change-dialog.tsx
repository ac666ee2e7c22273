import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { BillingActionAnswer } from "../../../shared/schemas/billing";
import {
  type BillingPeriod,
  planPriceCents,
  TIER_CONFIG,
  TIERS,
  type Tier,
} from "../../../shared/tiers";
import { apiPost, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { dateTimeFormat, formatNumber, formatPrice } from "../i18n/formats";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { useToast } from "../ui/toast";
import { useAccountTier } from "./account-tier-query";
import type { PlanAction } from "./plan-action";
import { pricePerPeriod } from "./price-text";
import type { SubscriptionStatus } from "./subscription-status-query";

export interface PlanChoice {
  tier: Tier;
  period: BillingPeriod;
  action: PlanAction;
}

const priceText = (tier: Tier, period: BillingPeriod) =>
  pricePerPeriod(planPriceCents(tier, period), period);

/**
 * The dialog's question and its confirm button: another period of the same plan, or another
 * plan ("Upgrade to Agency?").
 */
function changeWords(t: TFunction<"billing">, from: Tier, choice: PlanChoice) {
  if (choice.tier === from) {
    return choice.period === "annual"
      ? { title: t("Switch to Annual billing?"), confirm: choice.action.label }
      : { title: t("Switch to Monthly billing?"), confirm: choice.action.label };
  }
  const plan = TIER_CONFIG[choice.tier].name;
  return TIERS.indexOf(choice.tier) > TIERS.indexOf(from)
    ? { title: t("Upgrade to {{plan}}?", { plan }), confirm: t("Upgrade to {{plan}}", { plan }) }
    : {
        title: t("Downgrade to {{plan}}?", { plan }),
        confirm: t("Downgrade to {{plan}}", { plan }),
      };
}

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
  const { t } = useTranslation("billing");
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
      toast({ title: t("Plan changed"), description: answer.message, variant: "success" });
      onClose();
    },
    onError: (error) =>
      toast({
        title: t("Couldn't change your plan"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  const currentPeriod: BillingPeriod = status.billingPeriod === "annual" ? "annual" : "monthly";
  const from = status.accountTier;
  const to = choice?.tier ?? from;
  const toName = TIER_CONFIG[to].name;
  const fromName = TIER_CONFIG[from].name;
  const periodChanges = choice !== null && choice.period !== currentPeriod;
  const words = choice ? changeWords(t, from, choice) : { title: "", confirm: "" };
  const limit = TIER_CONFIG[to].clientLimit;
  const overLimit = limit !== null && tierInfo !== undefined && tierInfo.clientCount > limit;

  return (
    <ConfirmDialog
      open={choice !== null}
      onOpenChange={(open) => !open && onClose()}
      title={words.title}
      confirmLabel={words.confirm}
      busyLabel={t("Changing plan...")}
      busy={change.isPending}
      onConfirm={() => choice && change.mutate(choice)}
    >
      {choice && (
        <div className="plan-change__facts">
          <dl className="plan-change__prices">
            <dt>{t("Now")}</dt>
            <dd>
              {fromName} · {priceText(from, currentPeriod)}
            </dd>
            <dt>{t("From today")}</dt>
            <dd>
              {toName} · {priceText(to, choice.period)}
            </dd>
          </dl>
          {periodChanges ? (
            <p>
              {choice.period === "annual"
                ? t(
                    "Annual billing starts today: you are charged {{price}} per year now, less a prorated credit for the unused part of your current period.",
                    { price: formatPrice(planPriceCents(to, "annual")) },
                  )
                : t(
                    "Monthly billing starts today: you are charged {{price}} per month now, less a prorated credit for the unused part of your current period.",
                    { price: formatPrice(planPriceCents(to, "monthly")) },
                  )}
            </p>
          ) : (
            <p>
              {status.subscriptionEndDate
                ? t(
                    "The change is prorated: the unused time on {{from}} becomes a credit, and the rest of this billing period is charged at the {{to}} price on your next invoice ({{date}}).",
                    {
                      from: fromName,
                      to: toName,
                      date: dateTimeFormat({ dateStyle: "medium" }).format(
                        new Date(status.subscriptionEndDate),
                      ),
                    },
                  )
                : t(
                    "The change is prorated: the unused time on {{from}} becomes a credit, and the rest of this billing period is charged at the {{to}} price on your next invoice.",
                    { from: fromName, to: toName },
                  )}
            </p>
          )}
          {overLimit && tierInfo && (
            <p>
              {t(
                "{{plan}} allows up to {{limit}} clients and you have {{clients}}: they all stay, but you can't add more.",
                {
                  plan: toName,
                  limit: formatNumber(limit),
                  clients: formatNumber(tierInfo.clientCount),
                },
              )}
            </p>
          )}
          {status.cancelAtPeriodEnd && (
            <p>{t("Your scheduled cancellation is withdrawn: the plan renews.")}</p>
          )}
        </div>
      )}
    </ConfirmDialog>
  );
}
