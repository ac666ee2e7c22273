import { useTranslation } from "react-i18next";
import { useBillingMode } from "./billing-mode-query";
import "./test-mode-bar.css";

/**
 * The orange bar of BILLING_MODE=test, on every page where a plan can be chosen or is shown
 * (dashboard, pricing, the checkout page), so nobody mistakes a simulated upgrade for a sale.
 */
export function TestModeBar() {
  const { t } = useTranslation("billing");
  const mode = useBillingMode();
  if (mode !== "test") return null;
  return (
    <div className="test-mode-bar" role="note" data-toast-clear>
      {t("TEST MODE: no real payment is taken. Stripe is not configured on this server.")}
    </div>
  );
}
