import type { ChangeSeatsInput } from "../../shared/schemas/seats";
import { SEATS_INCLUDED, SEAT_TIER } from "../../shared/tiers";
import { applyProviderAnswer } from "../billing/apply-provider-answer";
import { billingProvider } from "../billing/provider";
import type { Services } from "../context";
import { conflict } from "../errors";
import { User } from "../models";
import { billingPolicy } from "../policies/billing";
import { seatsTaken } from "../queries/team-invites";

/**
 * The owner sets how many seats the workspace buys on top of Agency's (issue 26): the seat
 * item's quantity at the provider, applied at once like a plan change (the webhook's event
 * then finds nothing newer). More seats are prorated; fewer are not refunded and can only be
 * seats nobody holds (people and pending invites), so giving seats back never locks anyone
 * out. The audit log names the owner.
 */
export async function changeSeats(
  services: Services,
  actor: User,
  input: ChangeSeatsInput,
): Promise<User> {
  billingPolicy.authorize(actor, "changeSeats");
  // The row as stored, not the session's copy: the seats may have changed since it was read.
  const owner = await User.query(services.db).findById(actor.id).throwIfNotFound();
  // As for a plan change: a new charge must not pass for paying the failed invoice.
  if (owner.subscriptionStatus === "past_due" || owner.paymentFailureGraceEnd !== null)
    throw conflict("Your last payment failed: update your payment method first");
  if (input.extra === owner.extraSeats) return owner;
  if (input.extra < owner.extraSeats) {
    const taken = await seatsTaken(services.db, owner.id, services.clock.now());
    const total = SEATS_INCLUDED[SEAT_TIER] + input.extra;
    if (taken > total)
      throw conflict(
        "{{taken}} seats are in use (people and pending invites): remove someone or withdraw an invite before going down to {{total}} seats",
        { taken, total },
      );
  }
  const answer = await billingProvider(services).setExtraSeats(owner, input.extra);
  return applyProviderAnswer(services, owner.id, answer, actor);
}
