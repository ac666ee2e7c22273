import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import {
  type BillingPeriod,
  EXTRA_SEAT_PRICE,
  SEATS_INCLUDED,
  TIER_CONFIG,
  type Tier,
  type TierPlan,
} from "../../../shared/tiers";
import { formatPrice } from "../i18n/formats";
import { Button } from "../ui/button";
import { CheckIcon } from "../ui/notice-icons";
import type { PlanAction } from "./plan-action";

/** What each plan's card lists (spec section 9), in the reader's language. */
function planFeatures(tier: Tier, t: TFunction<"billing">): string[] {
  switch (tier) {
    case "free":
      return [
        t("1 client"),
        t("Unlimited messages"),
        t("File sharing"),
        t("Email notifications"),
        t("Basic support"),
      ];
    case "pro":
      return [
        t("Up to 10 clients"),
        t("File sharing with feedback"),
        t("Priority email notifications"),
        t("File attachment history"),
        t("Short invite links"),
        t("Priority support"),
      ];
    case "agency":
      return [
        t("Unlimited clients"),
        t("Company branding"),
        t("Colour scheme"),
        t("Large logo"),
        t("{{count}} team seats included, {{price}} per extra seat a month", {
          count: SEATS_INCLUDED.agency,
          price: formatPrice(EXTRA_SEAT_PRICE.monthly * 100),
        }),
      ];
  }
}

interface PlanCardProps {
  plan: TierPlan;
  period: BillingPeriod;
  action: PlanAction;
  onChoose: () => void;
}

export function PlanCard({ plan, period, action, onChoose }: PlanCardProps) {
  const { t } = useTranslation("billing");
  const name = TIER_CONFIG[plan.tier].name;
  const paid = plan.monthlyPrice > 0;
  const annual = period === "annual";
  const price = annual ? plan.annualPrice : plan.monthlyPrice;
  const saving = formatPrice(plan.annualSaving * 100);
  const headingId = `plan-${plan.tier}`;
  const noteId = `plan-${plan.tier}-note`;

  return (
    <section
      className={`plan-card${plan.mostPopular ? " plan-card--popular" : ""}`}
      aria-labelledby={headingId}
    >
      {plan.mostPopular && <p className="plan-card__ribbon">{t("Most Popular")}</p>}
      <h2 className="plan-card__name" id={headingId}>
        {name}
      </h2>
      <p className="plan-card__price">
        <span className="plan-card__amount">{formatPrice(price * 100)}</span>
        <span className="plan-card__per">
          {paid ? (annual ? t("/year") : t("/month")) : t("forever")}
        </span>
      </p>
      <p className="plan-card__saving">
        {paid
          ? annual
            ? t("You save {{amount}} a year", { amount: saving })
            : t("Save {{amount}} a year with annual billing", { amount: saving })
          : t("Everything you need to start")}
      </p>
      <ul className="plan-card__features">
        {planFeatures(plan.tier, t).map((feature) => (
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
