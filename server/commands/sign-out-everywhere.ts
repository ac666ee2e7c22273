import type { PasswordConfirmationInput } from "../../shared/schemas/user";
import type { Services } from "../context";
import { Session, type User } from "../models";
import { confirmIdentity } from "../policies/recent-sign-in";

/**
 * Ends every session of the account but this one (a lost laptop, a shared computer) and closes
 * their sockets on every instance. Confirmed like the other account changes a stolen session
 * must not make alone (policies/recent-sign-in.ts). Answers how many sessions ended.
 */
export async function signOutEverywhere(
  services: Services,
  actor: User,
  current: Session | undefined,
  input: PasswordConfirmationInput,
): Promise<number> {
  await confirmIdentity(actor, current, input.password, services.clock.now(), "signOutEverywhere");
  const ended: Session[] = await Session.query(services.db)
    .delete()
    .where("userId", actor.id)
    .whereNot("idHash", current?.idHash ?? "")
    .returning("idHash");
  for (const { idHash } of ended) {
    await services.realtime
      .endSession(idHash)
      .catch((error: unknown) =>
        services.logger.warn(
          { err: error, userId: actor.id },
          "could not close an ended session's sockets",
        ),
      );
  }
  return ended.length;
}
