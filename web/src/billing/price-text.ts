import type { BillingPeriod } from "../../../shared/tiers";
import { formatPrice } from "../i18n/formats";
import { i18n } from "../i18n/i18n";

/** "$8/month" or "$80/year" in the reader's language; the currency stays US dollars. */
export function pricePerPeriod(cents: number, period: BillingPeriod): string {
  const price = formatPrice(cents);
  return period === "annual"
    ? i18n.t("{{price}}/year", { ns: "billing", price })
    : i18n.t("{{price}}/month", { ns: "billing", price });
}
