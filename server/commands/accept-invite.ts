import { hashInviteToken, isWellFormedInviteToken } from "../auth/invite-tokens";
import { clientOfSpentInvite, rememberSpentInvite } from "../auth/spent-invite-tokens";
import type { Services } from "../context";
import { conflict, HttpError } from "../errors";
import type { Knex } from "knex";
import { Client, ClientContact, User } from "../models";
import { msg } from "../../shared/i18n/msg";

export const INVALID_INVITE = msg("This invite link is invalid or has already been used.");

const invalidInvite = () => new HttpError(404, INVALID_INVITE, { success: false });

export const USED_INVITE = msg(
  "This invite link was already used. To open your conversation again, ask for a sign-in link by email.",
);

/**
 * A link that was used or replaced by a newer one: the portal offers a sign-in link by email.
 * Nothing else is said (not whose link it was, nor the address it went to).
 */
export const usedInvite = () => new HttpError(410, USED_INVITE, { success: false, reason: "used" });

/**
 * The browser is signed in as another person than the invite's client (reason "signed_in"):
 * the portal offers to sign out and open the invite. Names only the signed-in person.
 */
const signedInAsSomeoneElse = (user: User) =>
  user.fullName
    ? new HttpError(
        409,
        msg(
          "You are signed in as {{name}} ({{email}}). This invite link is for another account: sign out to open it.",
        ),
        { reason: "signed_in" },
      ).with({ name: user.fullName, email: user.email })
    : new HttpError(
        409,
        msg(
          "You are signed in as {{email}}. This invite link is for another account: sign out to open it.",
        ),
        { reason: "signed_in" },
      ).with({ email: user.email });

/**
 * Uses up an invite token, the client's own or a further contact's (issue 26): the first use
 * creates that person's user (no password; the address is taken as verified, since the owner
 * sent the link to it) and sets joinedAt. The row is locked,
 * so of two accepts at the same moment exactly one finds the token. Answers the user to sign in.
 *
 * `signedIn` is who the browser is signed in as. An invite never swaps a signed-in person: anyone
 * but that invite's client user is refused (409) and the link stays live. The owner of the
 * client is told it is their own client's link; anyone else is told who they are signed in as
 * (themselves, so nothing about the invite leaks). The client user itself stays signed in.
 * The first join records ClientJoined (the owner's open pages hear of it).
 */
export async function acceptInvite(
  services: Services,
  token: string,
  signedIn?: User,
): Promise<{ client: Client; user: User }> {
  if (!isWellFormedInviteToken(token)) throw invalidInvite();
  const { db, clock } = services;
  const accepted = await db.transaction(async (trx) => {
    const tokenHash = hashInviteToken(token);
    const invite = await findInvite(trx, tokenHash);
    if (!invite) {
      throw (await clientOfSpentInvite(trx, tokenHash)) ? usedInvite() : invalidInvite();
    }
    const { client, contact } = invite;
    const person = contact ?? client;
    if (signedIn && signedIn.role === "owner" && signedIn.workspaceId === client.ownerId) {
      throw conflict(
        "This is your own client's invite link. Send it to your client, or open it in a private window.",
      );
    }
    if (signedIn && signedIn.id !== person.userId) throw signedInAsSomeoneElse(signedIn);
    const now = clock.now();
    let user = person.userId ? await User.query(trx).findById(person.userId) : undefined;
    if (!user) {
      user = await User.query(trx).insertAndFetch({
        email: person.email,
        fullName: person.name,
        role: "client",
        clientId: client.id,
        passwordHash: null,
        emailVerifiedAt: now,
      });
    }
    await rememberSpentInvite(trx, client.id, tokenHash, now);
    const spent = { inviteTokenHash: null, inviteTokenEncrypted: null, inviteIssuedAt: null };
    if (contact) {
      await ClientContact.query(trx)
        .findById(contact.id)
        .patch({ ...spent, userId: user.id, joinedAt: contact.joinedAt ?? now });
    }
    // The client's joinedAt: when the first of its people joined (its side can be written to).
    const joined = await Client.query(trx).patchAndFetchById(client.id, {
      ...(contact ? {} : { ...spent, userId: user.id }),
      joinedAt: client.joinedAt ?? now,
    });
    const joinedEvent = client.joinedAt
      ? null
      : await services.events.record(trx, { type: "ClientJoined", clientId: client.id });
    return { client: joined, user, joinedEvent };
  });
  if (accepted.joinedEvent) services.events.dispatch(accepted.joinedEvent);
  return { client: accepted.client, user: accepted.user };
}

/** The client (and the further contact, issue 26) whose live invite this is, locked. */
async function findInvite(
  trx: Knex.Transaction,
  tokenHash: string,
): Promise<{ client: Client; contact?: ClientContact } | undefined> {
  // A deleted client's invites (issue 28) are dead until it is restored.
  const client = await Client.live(trx).findOne({ inviteTokenHash: tokenHash }).forUpdate();
  if (client) return { client };
  const found = await ClientContact.query(trx).findOne({ inviteTokenHash: tokenHash });
  if (!found) return undefined;
  // The client first, then its contact: the order every change to a client locks them in.
  const locked = await Client.live(trx).findById(found.clientId).forUpdate();
  const contact = await ClientContact.query(trx)
    .findOne({ id: found.id, inviteTokenHash: tokenHash })
    .forUpdate();
  return locked && contact ? { client: locked, contact } : undefined;
}
