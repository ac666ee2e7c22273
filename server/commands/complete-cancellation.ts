import { applyProviderAnswer } from "../billing/apply-provider-answer";
import { billingProvider } from "../billing/provider";
import type { Services } from "../context";
import type { User } from "../models";

/** Ends the subscription at the end of the period already paid for; the plan stays until then. */
export async function completeCancellation(services: Services, actor: User): Promise<User> {
  const answer = await billingProvider(services).setCancelAtPeriodEnd(actor, true);
  return applyProviderAnswer(services, actor.id, answer);
}
