import type { PaidTier } from "../../shared/schemas/billing";
import type { BillingPeriod } from "../../shared/tiers";
import type { User } from "../models";

/**
 * What billing asks of the payment provider. Changes answer the subscription as the provider
 * now has it (Stripe's object, or test mode's object of the same shape); the caller applies
 * it through billing-state, like the webhook event that will follow.
 */
export interface BillingProvider {
  readonly testMode: boolean;
  /** The address of a checkout page for this plan. */
  createCheckout(user: User, tier: PaidTier, period: BillingPeriod): Promise<string>;
  /**
   * Moves the existing subscription to another paid plan or period, prorated (credit for the
   * unused time of the old price, the new price for the rest of the period).
   */
  changePlan(user: User, tier: PaidTier, period: BillingPeriod): Promise<unknown>;
  /**
   * Sets the subscription's seat item to `extra` seats (issue 26), priced at the subscription's
   * interval. More seats are prorated at once; fewer are not refunded: the next renewal bills
   * the lower quantity.
   */
  setExtraSeats(user: User, extra: number): Promise<unknown>;
  /** The address of a page where the owner updates the card and pays a failed invoice again. */
  paymentMethodUrl(user: User): Promise<string>;
  /** A one-off amount off the next invoice. */
  applyDiscount(user: User, amountCents: number): Promise<unknown>;
  /** No charges until `resumesAt`. */
  pause(user: User, resumesAt: Date): Promise<unknown>;
  setCancelAtPeriodEnd(user: User, cancel: boolean): Promise<unknown>;
  /** Ends a subscription at once (grace ran out, or a new checkout replaced it). */
  cancelNow(subscriptionId: string): Promise<void>;
}
