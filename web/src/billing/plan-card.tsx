import { type BillingPeriod, TIER_CONFIG, type TierPlan } from "../../../shared/tiers";
import { Button } from "../ui/button";
import { CheckIcon } from "../ui/icons";

interface PlanCardProps {
  plan: TierPlan;
  period: BillingPeriod;
  isCurrent: boolean;
  onChoose: () => void;
}

export function PlanCard({ plan, period, isCurrent, onChoose }: PlanCardProps) {
  const name = TIER_CONFIG[plan.tier].name;
  const paid = plan.monthlyPrice > 0;
  const annual = period === "annual";
  const price = annual ? plan.annualPrice : plan.monthlyPrice;
  const headingId = `plan-${plan.tier}`;
  // Spec: the current plan reads "Current Plan"; Free can never be chosen here.
  const disabled = isCurrent || !paid;

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
        disabled={disabled}
        onClick={onChoose}
      >
        {isCurrent ? "Current Plan" : "Get Started"}
      </Button>
    </section>
  );
}
