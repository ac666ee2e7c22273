import type { ChangePasswordInput } from "../../shared/schemas/user";
import { hashPassword } from "../auth/passwords";
import type { Services } from "../context";
import { User, type Session } from "../models";
import { confirmIdentity } from "../policies/recent-sign-in";
import { endSessionsOf } from "./end-sessions";

/**
 * Changes the password, or sets a Google-only account's first one (policies/recent-sign-in.ts
 * decides who may), and ends all sessions: the other browsers' sockets close at once
 * (SessionEnded); this browser is signed in anew by the route.
 */
export async function changePassword(
  services: Services,
  actor: User,
  session: Session | undefined,
  input: ChangePasswordInput,
): Promise<void> {
  await confirmIdentity(
    actor,
    session,
    input.currentPassword,
    services.clock.now(),
    "changePassword",
  );
  const passwordHash = await hashPassword(input.newPassword);
  const ended = await services.db.transaction(async (trx) => {
    await User.query(trx).patch({ passwordHash }).where("id", actor.id);
    return await endSessionsOf(services, trx, actor.id, session?.idHash);
  });
  if (ended) services.events.dispatch(ended);
}
