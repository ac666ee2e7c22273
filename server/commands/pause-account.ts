import type { PauseAccountInput } from "../../shared/schemas/billing";
import { applyProviderAnswer } from "../billing/apply-provider-answer";
import { billingProvider } from "../billing/provider";
import { addMonths } from "../billing/test-mode-events";
import type { Services } from "../context";
import { conflict } from "../errors";
import type { User } from "../models";

/** No charges for 1 to 3 months (Stripe pause_collection, invoices voided); the plan stays. */
export async function pauseAccount(
  services: Services,
  actor: User,
  input: PauseAccountInput,
): Promise<User> {
  const now = services.clock.now();
  if (actor.pausedUntil && new Date(actor.pausedUntil) > now)
    throw conflict("Your account is already paused");
  const resumesAt = addMonths(now, input.pauseMonths);
  const answer = await billingProvider(services).pause(actor, resumesAt);
  return applyProviderAnswer(services, actor.id, answer);
}
