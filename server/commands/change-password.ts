import type { ChangePasswordInput } from "../../shared/schemas/user";
import { hashPassword, verifyPassword } from "../auth/passwords";
import type { Services } from "../context";
import { badRequest } from "../errors";
import { User } from "../models";

/** Changes the password (the current one is required when there is one) and ends all sessions. */
export async function changePassword(services: Services, actor: User, input: ChangePasswordInput): Promise<void> {
  if (actor.passwordHash && !(await verifyPassword(input.currentPassword, actor.passwordHash))) {
    throw badRequest("Current password is incorrect");
  }
  const passwordHash = await hashPassword(input.newPassword);
  await services.db.transaction(async (trx) => {
    await User.query(trx).patch({ passwordHash }).where("id", actor.id);
    await services.sessions.endAllSessions(actor.id, trx);
  });
}
