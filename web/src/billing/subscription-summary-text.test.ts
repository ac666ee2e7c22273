import { beforeAll, describe, expect, it } from "vitest";
import deBilling from "../../../shared/locales/de/billing.json";
import enBilling from "../../../shared/locales/en/billing.json";
import { subscriptionSummary } from "../../../shared/subscription-summary";
import { i18n } from "../i18n/i18n";
import { subscriptionSummaryText } from "./subscription-summary-text";

/** The summary's words: the spec's English, and the reader's language with its own formats. */
describe("subscriptionSummaryText", () => {
  const now = new Date("2026-11-23T12:00:00Z");
  const paid = {
    accountTier: "pro" as const,
    subscriptionStatus: "active",
    subscriptionEndDate: "2027-11-23T12:00:00.000Z",
    paymentFailureGraceEnd: null,
    billingPeriod: "annual" as const,
    cancelAtPeriodEnd: false,
    pausedUntil: null,
  };
  const text = (changes: Partial<typeof paid> | Record<string, unknown> = {}) =>
    subscriptionSummaryText(subscriptionSummary({ ...paid, ...changes }, { now }), {
      timeZone: "UTC",
    });

  beforeAll(async () => {
    await i18n.init({
      lng: "en",
      fallbackLng: "en",
      ns: ["billing"],
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
      resources: { en: { billing: enBilling }, de: { billing: deBilling } },
    });
  });

  it("says the spec's English", async () => {
    await i18n.changeLanguage("en");
    expect(text()).toEqual({
      headline: "Renews on Nov 23, 2027",
      short: "Renews on Nov 23, 2027",
      plan: "Pro plan · $100/year",
    });
    expect(text({ accountTier: "agency", billingPeriod: "monthly" }).plan).toBe(
      "Agency plan · $30/month",
    );
    expect(text({ cancelAtPeriodEnd: true }).headline).toBe("Cancels on Nov 23, 2027");
    expect(text({ pausedUntil: "2027-01-23T12:00:00.000Z" })).toMatchObject({
      headline: "Paused until Jan 23, 2027; billing resumes then",
      short: "Paused until Jan 23, 2027",
    });
    expect(
      text({ subscriptionStatus: "past_due", paymentFailureGraceEnd: "2026-11-24T17:30:00.000Z" }),
    ).toMatchObject({
      headline: "Payment failed: downgraded on Nov 24, 2026, 5:30 PM unless the card is updated",
      short: "Payment failed",
    });
    expect(text({ accountTier: "free" })).toMatchObject({
      headline: "No paid subscription",
      plan: "Free plan",
    });
  });

  it("speaks the reader's language, prices and dates in its formats", async () => {
    await i18n.changeLanguage("de");
    expect(text()).toMatchObject({
      headline: "Verlängert sich am 23.11.2027",
      // Intl puts a no-break space between the amount and the currency.
      plan: "Tarif Pro · 100\u00a0$/Jahr",
    });
  });
});
