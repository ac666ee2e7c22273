import type { Services } from "../context";
import { User } from "../models";
import { handleBillingEvent } from "./handle-event";
import { currentTestSubscription, testEvent } from "./test-mode-events";

/**
 * Test mode plays Stripe's part at the end of a period the owner cancelled: the subscription
 * ends (customer.subscription.deleted, through the webhook's handler) and the account moves
 * to free. With Stripe, Stripe sends that event itself.
 */
export async function endCancelledTestSubscriptions(services: Services): Promise<number> {
  const now = services.clock.now();
  const due = await User.query(services.db)
    .where("cancelAtPeriodEnd", true)
    .whereNotNull("stripeSubscriptionId")
    .where("subscriptionEndDate", "<=", now)
    .limit(100);
  for (const user of due) {
    const ended = currentTestSubscription(user, { status: "canceled", cancelAtPeriodEnd: false });
    // One id per subscription: two passes (or instances) at once end it once.
    await handleBillingEvent(
      services,
      testEvent(
        "customer.subscription.deleted",
        ended,
        now,
        `evt_test_end_${user.stripeSubscriptionId}`,
      ),
    );
  }
  return due.length;
}
