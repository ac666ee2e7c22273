import type { BillingPeriod } from "../../../shared/tiers";

interface BillingPeriodToggleProps {
  value: BillingPeriod;
  onChange: (period: BillingPeriod) => void;
}

export function BillingPeriodToggle({ value, onChange }: BillingPeriodToggleProps) {
  return (
    <div className="period-toggle">
      {/* biome-ignore lint/a11y/useSemanticElements: a segmented control of two pressed-state buttons */}
      <div className="period-toggle__group" role="group" aria-label="Billing period">
        <button
          type="button"
          className="period-toggle__option"
          aria-pressed={value === "monthly"}
          onClick={() => onChange("monthly")}
        >
          Monthly
        </button>
        <button
          type="button"
          className="period-toggle__option"
          aria-pressed={value === "annual"}
          onClick={() => onChange("annual")}
        >
          Annual
        </button>
      </div>
      {value === "annual" && <span className="period-toggle__badge">Save up to $60/year</span>}
    </div>
  );
}
