import type { ChangePasswordInput } from "../../shared/schemas/user";
import { hashPassword } from "../auth/passwords";
import type { Services } from "../context";
import { User, type Session } from "../models";
import { confirmIdentity } from "../policies/recent-sign-in";

/**
 * Changes the password, or sets a Google-only account's first one (policies/recent-sign-in.ts
 * decides who may), and ends all sessions.
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
  await services.db.transaction(async (trx) => {
    await User.query(trx).patch({ passwordHash }).where("id", actor.id);
    await services.sessions.endAllSessions(actor.id, trx);
  });
}
