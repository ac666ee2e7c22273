import type { PaidTier } from "../../shared/schemas/billing";
import type { BillingPeriod } from "../../shared/tiers";
import type { Services } from "../context";
import type { User } from "../models";
import { notFound } from "../errors";
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

/**
 * Stripe or the local test mode, as BILLING_MODE says; one per app. With billing off there is
 * no provider: the billing routes answer 404 before asking for one.
 */
export function billingProvider(services: Services): BillingProvider {
  let provider = providers.get(services);
  if (!provider) {
    const { billingMode, stripe } = services.config;
    if (billingMode === "off") throw notFound(BILLING_OFF_MESSAGE);
    provider =
      billingMode === "stripe" && stripe
        ? new StripeBilling(services, stripe)
        : new TestModeBilling(services);
    providers.set(services, provider);
  }
  return provider;
}

export const BILLING_OFF_MESSAGE = "Billing is off on this server: every account has every feature";
