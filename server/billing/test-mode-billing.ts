import type { PaidTier } from "../../shared/schemas/billing";
import { type BillingPeriod, SEAT_TIER } from "../../shared/tiers";
import type { Services } from "../context";
import { conflict } from "../errors";
import type { User } from "../models";
import type { BillingProvider } from "./billing-provider";
import { TestCheckoutTokens } from "./test-checkout-token";
import { addPeriod, currentTestSubscription } from "./test-mode-events";

/**
 * Billing without Stripe keys: checkout is our own clearly labelled page
 * (/billing/test-checkout), and each change answers the subscription object Stripe would,
 * so the same state code applies it. No money moves.
 */
export class TestModeBilling implements BillingProvider {
  readonly testMode = true;
  private readonly tokens: TestCheckoutTokens;

  constructor(private readonly services: Services) {
    this.tokens = new TestCheckoutTokens(services.config.sessionSecret);
  }

  async createCheckout(user: User, tier: PaidTier, period: BillingPeriod): Promise<string> {
    const session = this.tokens.issue({ userId: user.id, tier, period }, this.services.clock.now());
    return `${this.services.config.appUrl}/billing/test-checkout?session=${encodeURIComponent(session)}`;
  }

  /**
   * As Stripe does: the same subscription on the new plan. A new billing interval starts a new
   * period today; the same interval keeps the period end (the difference is prorated).
   */
  async changePlan(user: User, tier: PaidTier, period: BillingPeriod): Promise<unknown> {
    const now = this.services.clock.now();
    const sameInterval = (user.billingPeriod ?? "monthly") === period;
    return currentTestSubscription(current(user), {
      tier,
      period,
      cancelAtPeriodEnd: false,
      currentPeriodEnd: sameInterval ? user.subscriptionEndDate : addPeriod(now, period),
      // Seats go with the Agency plan (issue 26), as Stripe's seat item does.
      extraSeats: tier === SEAT_TIER ? user.extraSeats : 0,
    });
  }

  /** The seat item's new quantity, at once: no money moves either way. */
  async setExtraSeats(user: User, extra: number): Promise<unknown> {
    return currentTestSubscription(current(user), { extraSeats: extra });
  }

  async paymentMethodUrl(user: User): Promise<string> {
    current(user);
    return `${this.services.config.appUrl}/billing/test-mode/payment-method`;
  }

  async applyDiscount(user: User): Promise<unknown> {
    return currentTestSubscription(current(user));
  }

  async pause(user: User, resumesAt: Date): Promise<unknown> {
    return currentTestSubscription(current(user), { pausedUntil: resumesAt });
  }

  async setCancelAtPeriodEnd(user: User, cancel: boolean): Promise<unknown> {
    return currentTestSubscription(current(user), { cancelAtPeriodEnd: cancel });
  }

  async cancelNow(): Promise<void> {
    // Nothing outside this database to stop.
  }
}

function current(user: User): User {
  if (!user.stripeSubscriptionId) throw conflict("There is no paid subscription to change");
  return user;
}
