import { DEFAULT_LANGUAGE, type Language } from "../../shared/i18n/languages";
import type { GoogleIdentity } from "../auth/google";
import type { Services } from "../context";
import { cleanSingleLineText } from "../../shared/schemas/text";
import type { RecordedEvent } from "../domain-events/events";
import { User } from "../models";
import { endSessionsOf } from "./end-sessions";

/** A Google identity that may not sign in here; the reason is logged, never shown. */
export class GoogleAccountRefused extends Error {}

const FULL_NAME_MAX = 100;

/**
 * Finds or creates the owner for a verified Google identity:
 * - a user already linked to this Google subject signs in;
 * - else the owner with this email is linked (an unverified one becomes verified, since Google
 *   verified the address, and loses the password nobody proved to own: it may have been set by
 *   someone who registered the address first, hoping its owner would later link it);
 * - else, if the address belongs only to client users, sign-in is refused: a client gets in
 *   through their invite, and Google must not turn them into an owner;
 * - else a verified owner on the free plan is created, without a password.
 */
export async function signInWithGoogle(
  services: Services,
  identity: GoogleIdentity,
  /** A new owner's workspace language: their browser's (issue 29). */
  workspaceLanguage: Language = DEFAULT_LANGUAGE,
): Promise<User> {
  const { db, clock } = services;
  const email = identity.email.trim().toLowerCase();
  let ended: RecordedEvent | null = null;
  const user = await db.transaction(async (trx) => {
    const linked = await User.query(trx).findOne({ googleSubject: identity.subject });
    if (linked) return linked;

    const owner = await User.query(trx).findOne({ email, role: "owner" }).forUpdate();
    if (owner) {
      if (owner.googleSubject) {
        throw new GoogleAccountRefused(
          "the owner with this email is linked to another Google account",
        );
      }
      const wasVerified = owner.emailVerifiedAt !== null;
      await User.query(trx)
        .patch(
          wasVerified
            ? { googleSubject: identity.subject }
            : { googleSubject: identity.subject, emailVerifiedAt: clock.now(), passwordHash: null },
        )
        .where("id", owner.id);
      if (!wasVerified) ended = await endSessionsOf(services, trx, owner.id);
      return User.query(trx).findById(owner.id).throwIfNotFound();
    }

    const client = await User.query(trx).findOne({ email, role: "client" });
    if (client) throw new GoogleAccountRefused("this email belongs to a client user, not an owner");

    const name = cleanSingleLineText(identity.name ?? "").trim();
    const fullName = (name || email.split("@")[0] || email).slice(0, FULL_NAME_MAX);
    return User.query(trx).insertAndFetch({
      email,
      passwordHash: null,
      fullName,
      role: "owner",
      accountTier: "free",
      emailVerifiedAt: clock.now(),
      googleSubject: identity.subject,
      workspaceLanguage,
    });
  });
  if (ended) services.events.dispatch(ended);
  return user;
}
