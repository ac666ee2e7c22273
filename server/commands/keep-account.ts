import { applyProviderAnswer } from "../billing/apply-provider-answer";
import { billingProvider } from "../billing/provider";
import type { Services } from "../context";
import { User } from "../models";
import { hasLiveSubscription } from "../policies/billing";

/** The owner stays: forget the cancellation answers and undo a cancel planned for period end. */
export async function keepAccount(services: Services, actor: User): Promise<User> {
  await User.query(services.db).findById(actor.id).patch({
    cancellationReason: null,
    cancellationDetails: null,
    cancellationRequestedAt: null,
  });
  if (hasLiveSubscription(actor) && actor.cancelAtPeriodEnd) {
    const answer = await billingProvider(services).setCancelAtPeriodEnd(actor, false);
    return applyProviderAnswer(services, actor.id, answer);
  }
  return User.query(services.db).findById(actor.id).throwIfNotFound();
}
