import { Link } from "react-router";
import { clientUsage, useAccountTier } from "../billing/account-tier-query";
import { useBillingMode } from "../billing/billing-mode-query";
import { Spinner } from "../ui/spinner";
import { StorageUsage } from "./storage-usage";

export function PlanBox() {
  const { data: tier, isPending, isError } = useAccountTier();
  const billingMode = useBillingMode();
  // Billing off (self-hosted): no plans to show or upgrade, only the storage used.
  if (billingMode === "off")
    return tier?.storage ? (
      <section className="plan-box" aria-label="Storage">
        <StorageUsage storage={tier.storage} />
      </section>
    ) : null;
  const limit = tier?.tierConfig.clientLimit ?? null;
  const usedShare = tier && limit ? Math.min(1, tier.clientCount / limit) : 0;

  return (
    <section className="plan-box" aria-label="Your plan">
      {isPending && <Spinner size="sm" label="Loading your plan" />}
      {isError && <p className="plan-box__usage">Plan details unavailable.</p>}
      {tier && (
        <>
          <p className="plan-box__name">{tier.tierConfig.name} plan</p>
          <p className="plan-box__usage">{clientUsage(tier)}</p>
          {limit !== null && (
            <div
              className="plan-box__meter"
              role="progressbar"
              aria-label="Clients used"
              aria-valuemin={0}
              aria-valuemax={limit}
              aria-valuenow={tier.clientCount}
            >
              <span style={{ width: `${usedShare * 100}%` }} />
            </div>
          )}
          <StorageUsage storage={tier.storage} />
        </>
      )}
      <Link to="/pricing" className="plan-box__link">
        {tier?.currentTier === "agency" ? "View plans" : "Upgrade plan"}
      </Link>
    </section>
  );
}
