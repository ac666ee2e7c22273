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
  const ended = await services.db.transaction(async (trx) => {
    const sessions: Session[] = await Session.query(trx)
      .delete()
      .where("userId", actor.id)
      .whereNot("idHash", current?.idHash ?? "")
      .returning("idHash");
    const sessionHashes = sessions.map((session) => session.idHash);
    const recorded = sessionHashes.length
      ? await services.events.record(trx, { type: "SessionEnded", userId: actor.id, sessionHashes })
      : null;
    return { count: sessionHashes.length, recorded };
  });
  if (ended.recorded) services.events.dispatch(ended.recorded);
  return ended.count;
}
