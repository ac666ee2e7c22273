import { Link } from "react-router";
import { useCurrentUser } from "../api/current-user";
import { useAccountTier } from "../billing/account-tier-query";
import { useBillingMode } from "../billing/billing-mode-query";
import { SubscriptionSection } from "../billing/subscription-section";
import { Alert } from "../ui/alert";
import { buttonClassName } from "../ui/button";
import { Spinner } from "../ui/spinner";
import { ColorSchemeSection } from "./color-scheme-section";
import { CompanyLogoSection } from "./company-logo-section";
import { DeleteAccountSection } from "./delete-account-section";
import { SignOutEverywhereSection } from "./sign-out-everywhere-section";

const yesNo = (value: boolean) => (value ? "Yes" : "No");

export function AccountTab() {
  const { data: tier, isPending, isError } = useAccountTier();
  const { data: user } = useCurrentUser();
  // Billing off (self-hosted): every feature, no plans to name or change.
  const plans = useBillingMode() !== "off";
  if (isPending) return <Spinner label="Loading your plan" />;
  if (isError || !tier)
    return <Alert variant="destructive" title="We couldn't load your plan. Please try again." />;
  const isAgency = tier.currentTier === "agency";

  return (
    <div className="settings-section-list">
      <section className="settings-section" aria-labelledby="plan-heading">
        <div className="settings-section__header">
          <h3 id="plan-heading" className="settings-section__title">
            Plan
          </h3>
          {plans && (
            <Link to="/pricing" className={buttonClassName("secondary", "sm")}>
              {isAgency ? "View plans" : "Upgrade"}
            </Link>
          )}
        </div>
        <dl className="plan-facts">
          {plans && (
            <div>
              <dt>Current tier</dt>
              <dd>{tier.tierConfig.name}</dd>
            </div>
          )}
          <div>
            <dt>Clients</dt>
            <dd>{tier.clientCount}</dd>
          </div>
          <div>
            <dt>Client limit</dt>
            <dd>{tier.tierConfig.clientLimit ?? "Unlimited"}</dd>
          </div>
          <div>
            <dt>Logo support</dt>
            <dd>{yesNo(tier.tierConfig.logoSupport)}</dd>
          </div>
          <div>
            <dt>Color customization</dt>
            <dd>{yesNo(tier.tierConfig.colorCustomization)}</dd>
          </div>
        </dl>
      </section>
      <SubscriptionSection />
      {isAgency && user && (
        <>
          <CompanyLogoSection logoUrl={user.companyLogo} />
          <ColorSchemeSection user={user} />
        </>
      )}
      <SignOutEverywhereSection />
      <DeleteAccountSection />
    </div>
  );
}
