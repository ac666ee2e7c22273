import type { PaidPlanPrice, SubscriptionSummary } from "../../../shared/subscription-summary";
import { TIER_CONFIG } from "../../../shared/tiers";
import { dateTimeFormat, formatPrice } from "../i18n/formats";
import { i18n } from "../i18n/i18n";

/**
 * The subscription's summary in the reader's language: shared/subscription-summary.ts decides
 * what to say, this says it. Read by the settings summary and by the dashboard's plan box.
 */
export interface SummaryText {
  /** E.g. "Paused until Jan 23, 2027; billing resumes then". */
  headline: string;
  /** The headline as the narrow plan box says it: "Paused until Jan 23, 2027". */
  short: string;
  /** E.g. "Pro plan · $10/month", or "Free plan". */
  plan: string;
}

/** `timeZone`: the browser's unless given (tests pin it). */
export function subscriptionSummaryText(
  summary: SubscriptionSummary,
  options: { timeZone?: string } = {},
): SummaryText {
  const { timeZone } = options;
  const date = (iso: string) =>
    dateTimeFormat({ dateStyle: "medium", timeZone }).format(new Date(iso));
  switch (summary.state) {
    case "free": {
      const headline = i18n.t("No paid subscription", { ns: "billing" });
      return { headline, short: headline, plan: i18n.t("Free plan", { ns: "billing" }) };
    }
    case "payment-failed": {
      const downgradeAt = dateTimeFormat({ dateStyle: "medium", timeStyle: "short", timeZone });
      return {
        headline: i18n.t("Payment failed: downgraded on {{date}} unless the card is updated", {
          ns: "billing",
          date: downgradeAt.format(new Date(summary.date)),
        }),
        short: i18n.t("Payment failed", { ns: "billing" }),
        plan: planPriceText(summary.plan),
      };
    }
    case "cancelling": {
      const headline = i18n.t("Cancels on {{date}}", { ns: "billing", date: date(summary.date) });
      return { headline, short: headline, plan: planPriceText(summary.plan) };
    }
    case "paused":
      return {
        headline: i18n.t("Paused until {{date}}; billing resumes then", {
          ns: "billing",
          date: date(summary.date),
        }),
        short: i18n.t("Paused until {{date}}", { ns: "billing", date: date(summary.date) }),
        plan: planPriceText(summary.plan),
      };
    case "renewing": {
      const headline = summary.date
        ? i18n.t("Renews on {{date}}", { ns: "billing", date: date(summary.date) })
        : i18n.t("Active", { ns: "billing" });
      return { headline, short: headline, plan: planPriceText(summary.plan) };
    }
  }
}

/** "Pro plan · $10/month", "Agency plan · $300/year". */
function planPriceText({ tier, period, priceCents }: PaidPlanPrice): string {
  const plan = TIER_CONFIG[tier].name;
  const price = formatPrice(priceCents);
  return period === "annual"
    ? i18n.t("{{plan}} plan · {{price}}/year", { ns: "billing", plan, price })
    : i18n.t("{{plan}} plan · {{price}}/month", { ns: "billing", plan, price });
}
