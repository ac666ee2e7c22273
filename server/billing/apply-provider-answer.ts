import type { AuditActor } from "../audit/record-audit";
import type { Services } from "../context";
import { User } from "../models";
import { applySubscription } from "./billing-state";
import { mailPaymentChange } from "./payment-mails";
import { recordPlanChange } from "./plan-changed";
import { recordSeatsChange } from "./seats-changed";
import { subscriptionObject } from "./stripe-objects";

/**
 * Applies the subscription a provider call answered, at once, through the same state code as
 * the webhook event that follows it (which then finds nothing newer to do). Times are whole
 * seconds, like Stripe's event times, so the two compare fairly. `actor` is who asked, named
 * in the audit log for a change of seats.
 */
export async function applyProviderAnswer(
  services: Services,
  userId: string,
  answer: unknown,
  actor?: AuditActor,
): Promise<User> {
  const subscription = subscriptionObject.parse(answer);
  const at = new Date(Math.floor(services.clock.now().getTime() / 1000) * 1000);
  const { user, recorded } = await services.db.transaction(async (trx) => {
    const before = await User.query(trx).findById(userId).forUpdate().throwIfNotFound();
    const applied = await applySubscription(trx, before, subscription, at);
    if (applied.payment) await mailPaymentChange(services, trx, applied.payment, at);
    const seatsChanged = await recordSeatsChange(services, trx, applied.seatsChanged, actor);
    return {
      user: await User.query(trx).findById(userId).throwIfNotFound(),
      recorded: [seatsChanged, await recordPlanChange(services, trx, applied.tierChangedFor)],
    };
  });
  services.events.dispatch(recorded.filter((event) => event !== null));
  return user;
}
