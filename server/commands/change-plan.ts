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
 * While a payment fails the plan stays as it is: a change would raise its own invoice (a
 * credit, or $0) that Stripe marks paid, which must not pass for paying the failed one.
 */
export async function changePlan(
  services: Services,
  actor: User,
  input: ChangePlanInput,
): Promise<User> {
  if (actor.subscriptionStatus === "past_due" || actor.paymentFailureGraceEnd !== null)
    throw conflict("Your last payment failed: update your payment method first");
  const period = actor.billingPeriod === "annual" ? "annual" : "monthly";
  if (actor.accountTier === input.tier && period === input.period) {
    const plan = TIER_CONFIG[input.tier].name;
    throw period === "annual"
      ? conflict("You are already on the {{plan}} plan, billed annually", { plan })
      : conflict("You are already on the {{plan}} plan, billed monthly", { plan });
  }
  const answer = await billingProvider(services).changePlan(actor, input.tier, input.period);
  return applyProviderAnswer(services, actor.id, answer);
}
