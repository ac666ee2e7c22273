import { hashToken } from "../auth/sessions";
import type { Services } from "../context";
import { badRequest } from "../errors";
import { Client, EmailCode, User } from "../models";
import { msg } from "../../shared/i18n/msg";

export const INVALID_SIGN_IN_LINK = msg("This sign-in link is invalid or has expired.");

/** Uses up a mailed sign-in link (once, within 15 minutes); answers the client user to sign in. */
export async function clientSignIn(
  services: Services,
  token: string,
): Promise<{ client: Client; user: User }> {
  const { db, clock } = services;
  const now = clock.now();
  return db.transaction(async (trx) => {
    // One conditional update: of two uses at the same moment, exactly one gets the row.
    const [link] = await EmailCode.query(trx)
      .patch({ usedAt: now })
      .where({ codeHash: hashToken(token), purpose: "sign_in_link" })
      .whereNull("usedAt")
      .where("expiresAt", ">", now)
      .returning("*");
    if (!link) throw badRequest(INVALID_SIGN_IN_LINK);
    const user = await User.query(trx).findOne({ id: link.userId, role: "client" });
    // A removed contact's user has no client any more (issue 26): their link is dead.
    // A deleted client's (issue 28) too, until it is restored.
    const client = user?.clientId ? await Client.live(trx).findById(user.clientId) : undefined;
    if (!user || !client) throw badRequest(INVALID_SIGN_IN_LINK);
    return { client, user };
  });
}
