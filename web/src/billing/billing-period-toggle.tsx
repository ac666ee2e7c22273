import { useTranslation } from "react-i18next";
import { type BillingPeriod, PLANS } from "../../../shared/tiers";
import { formatPrice } from "../i18n/formats";

interface BillingPeriodToggleProps {
  value: BillingPeriod;
  onChange: (period: BillingPeriod) => void;
}

/** The most a year of annual billing saves, on the plan where it saves most. */
const BEST_ANNUAL_SAVING = Math.max(...PLANS.map((plan) => plan.annualSaving));

export function BillingPeriodToggle({ value, onChange }: BillingPeriodToggleProps) {
  const { t } = useTranslation("billing");
  return (
    <div className="period-toggle">
      {/* biome-ignore lint/a11y/useSemanticElements: a segmented control of two pressed-state buttons */}
      <div className="period-toggle__group" role="group" aria-label={t("Billing period")}>
        <button
          type="button"
          className="period-toggle__option"
          aria-pressed={value === "monthly"}
          onClick={() => onChange("monthly")}
        >
          {t("Monthly")}
        </button>
        <button
          type="button"
          className="period-toggle__option"
          aria-pressed={value === "annual"}
          onClick={() => onChange("annual")}
        >
          {t("Annual")}
        </button>
      </div>
      {value === "annual" && (
        <span className="period-toggle__badge">
          {t("Save up to {{amount}}/year", { amount: formatPrice(BEST_ANNUAL_SAVING * 100) })}
        </span>
      )}
    </div>
  );
}
