import type { ChangePlanInput } from "../../shared/schemas/billing";
import { TIER_CONFIG } from "../../shared/tiers";
import { applyProviderAnswer } from "../billing/apply-provider-answer";
import { billingProvider } from "../billing/provider";
import type { Services } from "../context";
import { conflict } from "../errors";
import type { User } from "../models";

/**
 * Pro <-> Agency, monthly <-> annual: the owner's one subscription moves to the new price,
 * prorated, instead of a second checkout (free -> paid is a checkout; paid -> free is the
 * cancellation flow). The policy has checked there is a live paid subscription.
 */
export async function changePlan(
  services: Services,
  actor: User,
  input: ChangePlanInput,
): Promise<User> {
  const period = actor.billingPeriod === "annual" ? "annual" : "monthly";
  if (actor.accountTier === input.tier && period === input.period) {
    throw conflict(
      `You are already on the ${TIER_CONFIG[input.tier].name} plan, billed ${period === "annual" ? "annually" : "monthly"}`,
    );
  }
  const answer = await billingProvider(services).changePlan(actor, input.tier, input.period);
  return applyProviderAnswer(services, actor.id, answer);
}
