import { billingProvider } from "../billing/provider";
import type { Services } from "../context";
import type { User } from "../models";

/**
 * Where the owner updates the card: Stripe's Customer Portal (the open invoice is then paid
 * with the new card, and Stripe's invoice.paid event ends the grace period) or test mode's
 * own page.
 * The policy has checked there is a paid subscription to pay for.
 */
export function openPaymentMethod(services: Services, actor: User): Promise<string> {
  return billingProvider(services).paymentMethodUrl(actor);
}
