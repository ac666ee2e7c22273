import type { Services } from "../context";
import { notFound } from "../errors";
import type { BillingProvider } from "./billing-provider";
import { StripeBilling } from "./stripe-billing";
import { TestModeBilling } from "./test-mode-billing";
import { msg } from "../../shared/i18n/msg";

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

export const BILLING_OFF_MESSAGE = msg(
  "Billing is off on this server: every account has every feature",
);
