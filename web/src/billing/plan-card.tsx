import { type BillingPeriod, TIER_CONFIG, type TierPlan } from "../../../shared/tiers";
import { Button } from "../ui/button";
import { CheckIcon } from "../ui/icons";
import type { PlanAction } from "./plan-action";

interface PlanCardProps {
  plan: TierPlan;
  period: BillingPeriod;
  action: PlanAction;
  onChoose: () => void;
}

export function PlanCard({ plan, period, action, onChoose }: PlanCardProps) {
  const name = TIER_CONFIG[plan.tier].name;
  const paid = plan.monthlyPrice > 0;
  const annual = period === "annual";
  const price = annual ? plan.annualPrice : plan.monthlyPrice;
  const headingId = `plan-${plan.tier}`;
  const noteId = `plan-${plan.tier}-note`;

  return (
    <section
      className={`plan-card${plan.mostPopular ? " plan-card--popular" : ""}`}
      aria-labelledby={headingId}
    >
      {plan.mostPopular && <p className="plan-card__ribbon">Most Popular</p>}
      <h2 className="plan-card__name" id={headingId}>
        {name}
      </h2>
      <p className="plan-card__price">
        <span className="plan-card__amount">${price}</span>
        <span className="plan-card__per">{paid ? (annual ? "/year" : "/month") : "forever"}</span>
      </p>
      <p className="plan-card__saving">
        {paid
          ? annual
            ? `You save $${plan.annualSaving} a year`
            : `Save $${plan.annualSaving} a year with annual billing`
          : "Everything you need to start"}
      </p>
      <ul className="plan-card__features">
        {plan.features.map((feature) => (
          <li key={feature}>
            <CheckIcon />
            {feature}
          </li>
        ))}
      </ul>
      <Button
        fullWidth
        size="lg"
        variant={plan.mostPopular ? "primary" : "secondary"}
        disabled={action.disabled}
        aria-describedby={action.note ? noteId : undefined}
        onClick={onChoose}
      >
        {action.label}
      </Button>
      {action.note && (
        <p className="plan-card__note" id={noteId}>
          {action.note}
        </p>
      )}
    </section>
  );
}
