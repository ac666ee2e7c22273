import type { Services } from "../context";
import type { Knex } from "knex";
import {
  type Applied,
  applyCheckoutCompleted,
  applyPaymentFailed,
  applyPaymentSucceeded,
  applySubscription,
  lockBillingUser,
  NOT_APPLIED,
} from "./billing-state";
import { mailPaymentChange } from "./payment-mails";
import { recordPlanChange } from "./plan-changed";
import { recordSeatsChange } from "./seats-changed";
import { billingProvider } from "./provider";
import {
  type BillingEvent,
  checkoutSessionObject,
  invoiceObject,
  subscriptionObject,
} from "./stripe-objects";

export interface HandledEvent {
  /** False when this event id was processed before (a replay): nothing changed. */
  firstTime: boolean;
  applied: boolean;
}

export const SUBSCRIPTION_EVENTS = new Set([
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "customer.subscription.paused",
  "customer.subscription.resumed",
]);

/**
 * Turns one billing event into account state: the signed Stripe webhook and the test-mode
 * checkout both come through here. Each event id is processed once (billing_events), in the
 * same transaction as its state change.
 */
export async function handleBillingEvent(
  services: Services,
  event: BillingEvent,
): Promise<HandledEvent> {
  const at = new Date(event.created * 1000);
  const outcome = await services.db.transaction(async (trx) => {
    const inserted = await trx("billing_events")
      .insert({ id: event.id, type: event.type, processedAt: services.clock.now() })
      .onConflict("id")
      .ignore()
      .returning("id");
    if (inserted.length === 0) return { firstTime: false, ...NOT_APPLIED };
    const applied = await applyEvent(trx, event, at);
    if (applied.payment) await mailPaymentChange(services, trx, applied.payment, at);
    const seatsChanged = await recordSeatsChange(services, trx, applied.seatsChanged);
    const planChanged = await recordPlanChange(services, trx, applied.tierChangedFor);
    return { firstTime: true, ...applied, recorded: [seatsChanged, planChanged] };
  });
  if ("recorded" in outcome)
    services.events.dispatch(outcome.recorded.filter((event) => event !== null));

  if (outcome.replacedSubscriptionId) {
    // A new checkout replaced the plan: stop billing the old subscription. Its "deleted"
    // event is ignored since it is no longer the account's current subscription.
    await billingProvider(services)
      .cancelNow(outcome.replacedSubscriptionId)
      .catch((error) =>
        services.logger.error({ err: error }, "could not cancel a replaced subscription"),
      );
  }
  return { firstTime: outcome.firstTime, applied: outcome.applied };
}

/** The event's fact applied to its account (in the caller's transaction). */
async function applyEvent(trx: Knex.Transaction, event: BillingEvent, at: Date): Promise<Applied> {
  const object = event.data.object;
  if (
    event.type === "checkout.session.completed" ||
    event.type === "checkout.session.async_payment_succeeded"
  ) {
    return applyCheckoutCompleted(trx, checkoutSessionObject.parse(object), at);
  }
  if (SUBSCRIPTION_EVENTS.has(event.type)) {
    const subscription = subscriptionObject.parse(object);
    const user = await lockBillingUser(trx, {
      customerId: subscription.customer,
      userId: subscription.metadata.userId,
    });
    return user ? applySubscription(trx, user, subscription, at) : NOT_APPLIED;
  }
  if (event.type === "invoice.payment_failed") {
    return applyPaymentFailed(trx, invoiceObject.parse(object), at);
  }
  if (event.type === "invoice.paid" || event.type === "invoice.payment_succeeded") {
    return applyPaymentSucceeded(trx, invoiceObject.parse(object), at);
  }
  return NOT_APPLIED;
}
