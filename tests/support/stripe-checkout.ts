import { expect } from "vitest";
import { User } from "../../server/models";
import type { SignedInOwner } from "./factories";
import type { TestServer } from "./server";
import {
  deliverEvent,
  type StandInSubscription,
  type StripeStandIn,
  stripeEvent,
} from "./stripe-stand-in";

export interface PaidPlan {
  tier: "pro" | "agency";
  period: "monthly" | "annual";
  /** When the first period ends. */
  periodEnd: Date;
  /** The price in cents (the stand-in's default otherwise). */
  unitAmount?: number;
}

/**
 * A paid Stripe checkout: the checkout through the API, then the session's and the
 * subscription's own events, signed as Stripe sends them once it is paid.
 */
export async function subscribeWithStripe(
  server: TestServer,
  standIn: StripeStandIn,
  owner: SignedInOwner,
  plan: PaidPlan,
): Promise<StandInSubscription> {
  const { tier, period } = plan;
  const checkout = await owner.agent.post("/api/subscription/create-checkout", { tier, period });
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
  const user = await User.query(server.db).findById(owner.id).throwIfNotFound();
  const metadata = { userId: owner.id, tier, period };
  const subscription = standIn.addSubscription({
    customer: user.stripeCustomerId!,
    metadata,
    ...(plan.unitAmount !== undefined && { unitAmount: plan.unitAmount }),
    periodEnd: Math.floor(plan.periodEnd.getTime() / 1000),
  });
  const session = {
    id: `cs_${subscription.id}`,
    object: "checkout.session",
    mode: "subscription",
    customer: user.stripeCustomerId,
    subscription: subscription.id,
    client_reference_id: owner.id,
    payment_status: "paid",
    metadata,
  };
  const now = server.clock.now();
  for (const event of [
    stripeEvent("checkout.session.completed", session, now),
    stripeEvent("customer.subscription.created", subscription, now),
  ]) {
    expect((await deliverEvent(owner.agent, event)).status).toBe(200);
  }
  return subscription;
}

/** An invoice of `subscription` as Stripe's invoice events carry it. */
export function subscriptionInvoice(
  subscription: StandInSubscription,
  fields: Record<string, unknown> = {},
) {
  return {
    id: `in_${Math.random().toString(36).slice(2)}`,
    object: "invoice",
    customer: subscription.customer,
    ...fields,
    parent: {
      type: "subscription_details",
      subscription_details: { subscription: subscription.id },
    },
  };
}
