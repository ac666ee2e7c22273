import { describe, expect, it } from "vitest";
import { subscriptionSummary } from "./subscription-summary";

/** One coherent status line for the settings summary and the plan box. */
describe("subscriptionSummary", () => {
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
  const summary = (changes: Partial<typeof paid> | Record<string, unknown> = {}) =>
    subscriptionSummary({ ...paid, ...changes }, { now, timeZone: "UTC" });

  it("renews, naming the date and the plan's price", () => {
    expect(summary()).toEqual({
      state: "renewing",
      headline: "Renews on Nov 23, 2027",
      plan: "Pro plan · $100/year",
    });
    expect(summary({ accountTier: "agency", billingPeriod: "monthly" }).plan).toBe(
      "Agency plan · $30/month",
    );
  });

  it("says when a scheduled cancellation ends the plan", () => {
    expect(summary({ cancelAtPeriodEnd: true })).toMatchObject({
      state: "cancelling",
      headline: "Cancels on Nov 23, 2027",
    });
  });

  it("says until when a pause runs, and that billing resumes then", () => {
    expect(summary({ pausedUntil: "2027-01-23T12:00:00.000Z" })).toMatchObject({
      state: "paused",
      headline: "Paused until Jan 23, 2027; billing resumes then",
    });
    // A pause that has ended no longer counts.
    expect(summary({ pausedUntil: "2026-10-01T00:00:00.000Z" }).state).toBe("renewing");
  });

  it("leads with a failed payment, over a pause or a cancellation", () => {
    expect(
      summary({
        subscriptionStatus: "past_due",
        paymentFailureGraceEnd: "2026-11-24T17:30:00.000Z",
        pausedUntil: "2027-01-23T12:00:00.000Z",
        cancelAtPeriodEnd: true,
      }),
    ).toMatchObject({
      state: "payment-failed",
      headline: "Payment failed: downgraded on Nov 24, 2026, 5:30 PM unless the card is updated",
    });
  });

  it("puts a cancellation before a pause", () => {
    expect(
      summary({ cancelAtPeriodEnd: true, pausedUntil: "2027-01-23T12:00:00.000Z" }).state,
    ).toBe("cancelling");
  });

  it("has nothing paid to describe on free or after the subscription ended", () => {
    expect(summary({ accountTier: "free" })).toEqual({
      state: "free",
      headline: "No paid subscription",
      plan: "Free plan",
    });
    expect(summary({ subscriptionStatus: "canceled" }).state).toBe("free");
  });
});
