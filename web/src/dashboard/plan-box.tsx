import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useMyTeamRole } from "../api/team-members";
import { subscriptionSummary } from "../../../shared/subscription-summary";
import { SEATS_INCLUDED } from "../../../shared/tiers";
import { clientUsage, useAccountTier } from "../billing/account-tier-query";
import { useBillingMode } from "../billing/billing-mode-query";
import { seatsUsedText, useSeats } from "../billing/seats-query";
import { useSubscriptionStatus } from "../billing/subscription-status-query";
import { subscriptionSummaryText } from "../billing/subscription-summary-text";
import { Spinner } from "../ui/spinner";
import { StorageUsage } from "./storage-usage";
import "./plan-box.css";

/**
 * What is about to happen to the plan, when something is (paused, cancelling, a failed
 * payment), in the words of the settings summary; nothing while it simply renews.
 */
function PlanState() {
  const { data: status } = useSubscriptionStatus();
  if (!status) return null;
  const summary = subscriptionSummary(status, { now: new Date() });
  if (summary.state === "free" || summary.state === "renewing") return null;
  // The sidebar is narrow: the summary's short form says it.
  return (
    <p className={`plan-box__state plan-box__state--${summary.state}`}>
      {subscriptionSummaryText(summary).short}
    </p>
  );
}

/** "3 of 4 seats used", on the plans that have seats to share (Agency). */
function SeatUsage({ enabled }: { enabled: boolean }) {
  const { data: seats } = useSeats({ enabled });
  if (!enabled || !seats) return null;
  return <p className="plan-box__usage">{seatsUsedText(seats)}</p>;
}

export function PlanBox() {
  const myRole = useMyTeamRole();
  const { data: tier, isPending, isLoadingError } = useAccountTier();
  const billingMode = useBillingMode();
  const { t } = useTranslation("dashboard");
  // Billing off (self-hosted): no plans to show or upgrade, only the storage used.
  if (billingMode === "off")
    return tier?.storage ? (
      <section className="plan-box" aria-label={t("Storage")}>
        <StorageUsage storage={tier.storage} />
      </section>
    ) : null;
  const limit = tier?.tierConfig.clientLimit ?? null;
  const usedShare = tier && limit ? Math.min(1, tier.clientCount / limit) : 0;

  return (
    <section className="plan-box" aria-label={t("Your plan")}>
      {isPending && <Spinner size="sm" label={t("Loading your plan")} />}
      {isLoadingError && <p className="plan-box__usage">{t("Plan details unavailable.")}</p>}
      {tier && (
        <>
          <p className="plan-box__name">{t("{{plan}} plan", { plan: tier.tierConfig.name })}</p>
          <PlanState />
          <p className="plan-box__usage">{clientUsage(tier)}</p>
          {limit !== null && (
            <div
              className="plan-box__meter"
              role="progressbar"
              aria-label={t("Clients used")}
              aria-valuemin={0}
              aria-valuemax={limit}
              aria-valuenow={tier.clientCount}
            >
              <span style={{ width: `${usedShare * 100}%` }} />
            </div>
          )}
          <SeatUsage enabled={SEATS_INCLUDED[tier.currentTier] > 1} />
          <StorageUsage storage={tier.storage} />
        </>
      )}
      {/* The workspace's plan is its owner's to change (issue 26). */}
      {(myRole === undefined || myRole === "owner") && (
        <Link to="/pricing" className="plan-box__link">
          {tier?.currentTier === "agency" ? t("View plans") : t("Upgrade plan")}
        </Link>
      )}
    </section>
  );
}
