import type { Services } from "../context";
import { User } from "../models";
import { recordPlanChange } from "./plan-changed";
import { recordSeatsChange } from "./seats-changed";
import { billingProvider } from "./provider";

const BATCH = 100;

/**
 * Downgrades to free every account whose payment grace period ended unpaid, and stops its
 * subscription at the provider. Clients and messages stay; only adding beyond the free limit
 * and the paid features stop. Rows are taken FOR UPDATE SKIP LOCKED, so several server
 * instances never downgrade the same account twice.
 */
export async function expireGracePeriods(services: Services): Promise<number> {
  let total = 0;
  for (;;) {
    const now = services.clock.now();
    const ended = await services.db.transaction(async (trx) => {
      const users = await User.query(trx)
        .whereNotNull("paymentFailureGraceEnd")
        .where("paymentFailureGraceEnd", "<=", now)
        .forUpdate()
        .skipLocked()
        .limit(BATCH);
      const recorded = [];
      for (const user of users) {
        await User.query(trx).findById(user.id).patch({
          accountTier: "free",
          extraSeats: 0,
          subscriptionStatus: "canceled",
          paymentFailureGraceEnd: null,
          cancelAtPeriodEnd: false,
          pausedUntil: null,
          // Events from before the downgrade (e.g. a late retry's failure) change nothing now.
          billingSyncedAt: now,
        });
        // The downgraded owner's open portals lose the agency branding.
        recorded.push((await recordPlanChange(services, trx, user.id))!);
        if (user.extraSeats > 0) {
          const seatsChanged = await recordSeatsChange(services, trx, {
            ownerId: user.id,
            before: user.extraSeats,
            after: 0,
          });
          if (seatsChanged) recorded.push(seatsChanged);
        }
      }
      return { users, recorded };
    });
    services.events.dispatch(ended.recorded);
    for (const user of ended.users) {
      services.logger.info({ userId: user.id }, "payment grace period ended: downgraded to free");
      if (user.stripeSubscriptionId) {
        await billingProvider(services)
          .cancelNow(user.stripeSubscriptionId)
          .catch((error) =>
            services.logger.error(
              { err: error, userId: user.id },
              "could not cancel the unpaid subscription",
            ),
          );
      }
    }
    total += ended.users.length;
    if (ended.users.length < BATCH) return total;
  }
}
