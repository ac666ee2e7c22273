import type { PaidTier } from "../../shared/schemas/billing";
import type { BillingPeriod } from "../../shared/tiers";
import type { Services } from "../context";
import type { User } from "../models";
import { StripeBilling } from "./stripe-billing";
import { TestModeBilling } from "./test-mode-billing";

/**
 * What billing asks of the payment provider. Changes answer the subscription as the provider
 * now has it (Stripe's object, or test mode's object of the same shape); the caller applies
 * it through billing-state, like the webhook event that will follow.
 */
export interface BillingProvider {
  readonly testMode: boolean;
  /** The address of a checkout page for this plan. */
  createCheckout(user: User, tier: PaidTier, period: BillingPeriod): Promise<string>;
  /** A one-off amount off the next invoice. */
  applyDiscount(user: User, amountCents: number): Promise<unknown>;
  /** No charges until `resumesAt`. */
  pause(user: User, resumesAt: Date): Promise<unknown>;
  setCancelAtPeriodEnd(user: User, cancel: boolean): Promise<unknown>;
  /** Ends a subscription at once (grace ran out, or a new checkout replaced it). */
  cancelNow(subscriptionId: string): Promise<void>;
}

const providers = new WeakMap<Services, BillingProvider>();

/** Stripe when STRIPE_SECRET_KEY is set, else the local test mode; one per app. */
export function billingProvider(services: Services): BillingProvider {
  let provider = providers.get(services);
  if (!provider) {
    provider = services.config.stripe
      ? new StripeBilling(services, services.config.stripe)
      : new TestModeBilling(services);
    providers.set(services, provider);
  }
  return provider;
}
