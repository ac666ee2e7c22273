import type { ResetPasswordInput } from "../../shared/schemas/auth";
import { EmailCodes } from "../auth/email-codes";
import { hashPassword } from "../auth/passwords";
import type { Services } from "../context";
import { badRequest } from "../errors";
import { User } from "../models";
import { endSessionsOf } from "./end-sessions";
import { msg } from "../../shared/i18n/msg";

export const INVALID_RESET_CODE = msg("Invalid or expired reset code");

/** Sets a new password with a mailed code and ends every session of the account. */
export async function resetPassword(services: Services, input: ResetPasswordInput): Promise<void> {
  const { db, config, clock } = services;
  const codes = new EmailCodes(config.sessionSecret, clock);
  const passwordHash = await hashPassword(input.newPassword);
  const done = await db.transaction(async (trx) => {
    const user = await User.query(trx).findOne({ email: input.email, role: "owner" });
    if (!user) return false;
    if (!(await codes.consume(user.id, "reset_password", input.token, trx))) return false;
    // The code came through this address's mailbox, which also verifies it.
    await User.query(trx)
      .patch({ passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? clock.now() })
      .where("id", user.id);
    return { ended: await endSessionsOf(services, trx, user.id) };
  });
  if (!done) throw badRequest(INVALID_RESET_CODE);
  if (done.ended) services.events.dispatch(done.ended);
}
