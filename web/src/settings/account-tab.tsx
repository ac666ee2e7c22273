import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useCurrentUser } from "../api/current-user";
import { useAccountTier } from "../billing/account-tier-query";
import { useBillingMode } from "../billing/billing-mode-query";
import { SubscriptionSection } from "../billing/subscription-section";
import { formatNumber } from "../i18n/formats";
import { Alert } from "../ui/alert";
import { buttonClassName } from "../ui/button";
import { Spinner } from "../ui/spinner";
import { ColorSchemeSection } from "./color-scheme-section";
import { CompanyLogoSection } from "./company-logo-section";
import { DeleteAccountSection } from "./delete-account-section";
import { ExportWorkspaceSection } from "./export-workspace-section";
import { SignOutEverywhereSection } from "./sign-out-everywhere-section";
import { WorkspaceLanguageSetting } from "../i18n/workspace-language-setting";

export function AccountTab() {
  const { t } = useTranslation("settings");
  const yesNo = (value: boolean) => (value ? t("Yes") : t("No"));
  const { data: tier, isPending, isError } = useAccountTier();
  const { data: user } = useCurrentUser();
  // Billing off (self-hosted): every feature, no plans to name or change.
  const plans = useBillingMode() !== "off";
  if (isPending) return <Spinner label={t("Loading your plan")} />;
  if (isError || !tier)
    return (
      <Alert variant="destructive" title={t("We couldn't load your plan. Please try again.")} />
    );
  const isAgency = tier.currentTier === "agency";

  return (
    <div className="settings-section-list">
      <section className="settings-section" aria-labelledby="plan-heading">
        <div className="settings-section__header">
          <h3 id="plan-heading" className="settings-section__title">
            {t("Plan")}
          </h3>
          {plans && (
            <Link to="/pricing" className={buttonClassName("secondary", "sm")}>
              {isAgency ? t("View plans") : t("Upgrade")}
            </Link>
          )}
        </div>
        <dl className="plan-facts">
          {plans && (
            <div>
              <dt>{t("Current tier")}</dt>
              <dd>{tier.tierConfig.name}</dd>
            </div>
          )}
          <div>
            <dt>{t("Clients")}</dt>
            <dd>{formatNumber(tier.clientCount)}</dd>
          </div>
          <div>
            <dt>{t("Client limit")}</dt>
            <dd>
              {tier.tierConfig.clientLimit === null
                ? t("Unlimited")
                : formatNumber(tier.tierConfig.clientLimit)}
            </dd>
          </div>
          <div>
            <dt>{t("Logo support")}</dt>
            <dd>{yesNo(tier.tierConfig.logoSupport)}</dd>
          </div>
          <div>
            <dt>{t("Color customization")}</dt>
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
      <WorkspaceLanguageSetting />
      <ExportWorkspaceSection />
      <SignOutEverywhereSection />
      <DeleteAccountSection />
    </div>
  );
}
