import type { StartCancellationInput } from "../../shared/schemas/billing";
import type { Services } from "../context";
import { User } from "../models";

/** Step one of the cancellation flow: why the owner wants to leave. Nothing ends yet. */
export async function startCancellation(
  services: Services,
  actor: User,
  input: StartCancellationInput,
): Promise<User> {
  return User.query(services.db).patchAndFetchById(actor.id, {
    cancellationReason: input.reason,
    cancellationDetails: input.reason === "other" ? (input.customReason ?? null) : null,
    cancellationRequestedAt: services.clock.now(),
  });
}
