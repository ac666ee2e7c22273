import { describe, expect, it } from "vitest";
import { subscriptionSummary } from "./subscription-summary";

/** One coherent status for the settings summary and the plan box (worded by the web). */
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
    subscriptionSummary({ ...paid, ...changes }, { now });

  it("renews, naming the date and the plan's price", () => {
    expect(summary()).toEqual({
      state: "renewing",
      date: "2027-11-23T12:00:00.000Z",
      plan: { tier: "pro", period: "annual", priceCents: 10_000 },
    });
    expect(summary({ accountTier: "agency", billingPeriod: "monthly" })).toMatchObject({
      plan: { tier: "agency", period: "monthly", priceCents: 3_000 },
    });
  });

  it("says when a scheduled cancellation ends the plan", () => {
    expect(summary({ cancelAtPeriodEnd: true })).toMatchObject({
      state: "cancelling",
      date: "2027-11-23T12:00:00.000Z",
    });
  });

  it("says until when a pause runs", () => {
    expect(summary({ pausedUntil: "2027-01-23T12:00:00.000Z" })).toMatchObject({
      state: "paused",
      date: "2027-01-23T12:00:00.000Z",
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
    ).toMatchObject({ state: "payment-failed", date: "2026-11-24T17:30:00.000Z" });
  });

  it("puts a cancellation before a pause", () => {
    expect(
      summary({ cancelAtPeriodEnd: true, pausedUntil: "2027-01-23T12:00:00.000Z" }).state,
    ).toBe("cancelling");
  });

  it("has nothing paid to describe on free or after the subscription ended", () => {
    expect(summary({ accountTier: "free" })).toEqual({ state: "free" });
    expect(summary({ subscriptionStatus: "canceled" })).toEqual({ state: "free" });
  });

  it("bills monthly when the period is unknown", () => {
    expect(summary({ billingPeriod: null })).toMatchObject({
      plan: { tier: "pro", period: "monthly", priceCents: 1_000 },
    });
  });
});
