import type { CreateCheckoutInput } from "../../shared/schemas/billing";
import { TIER_CONFIG } from "../../shared/tiers";
import { billingProvider } from "../billing/provider";
import type { Services } from "../context";
import { conflict } from "../errors";
import type { User } from "../models";
import { hasLiveSubscription } from "../policies/billing";

/**
 * A checkout page for a paid plan (Stripe Checkout, or the test-mode page): only from free.
 * A paid owner changes plan on the same subscription (change-plan, prorated) and a failing
 * payment is fixed by updating the card (payment-method), never by a second subscription.
 */
export async function createCheckout(
  services: Services,
  actor: User,
  input: CreateCheckoutInput,
): Promise<string> {
  if (hasLiveSubscription(actor)) {
    if (actor.subscriptionStatus === "past_due")
      throw conflict("Your last payment failed: update your payment method first");
    if (actor.accountTier === input.tier)
      throw conflict("You are already on the {{plan}} plan", {
        plan: TIER_CONFIG[input.tier].name,
      });
    throw conflict("You already have a paid plan: change it from the pricing page");
  }
  return billingProvider(services).createCheckout(actor, input.tier, input.period);
}
