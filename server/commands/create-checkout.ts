import type { CreateCheckoutInput } from "../../shared/schemas/billing";
import { TIER_CONFIG } from "../../shared/tiers";
import { billingProvider } from "../billing/provider";
import type { Services } from "../context";
import { conflict } from "../errors";
import type { User } from "../models";
import { hasLiveSubscription } from "../policies/billing";

/**
 * A checkout page for a paid plan (Stripe Checkout, or the test-mode page). The same plan
 * again only while its payment is failing: paying the new one replaces the failing one.
 */
export async function createCheckout(
  services: Services,
  actor: User,
  input: CreateCheckoutInput,
): Promise<string> {
  const failing = actor.subscriptionStatus === "past_due";
  if (actor.accountTier === input.tier && hasLiveSubscription(actor) && !failing) {
    throw conflict(`You are already on the ${TIER_CONFIG[input.tier].name} plan`);
  }
  return billingProvider(services).createCheckout(actor, input.tier, input.period);
}
