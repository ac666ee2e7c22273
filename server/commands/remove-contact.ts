import { uuidSchema } from "../../shared/schemas/common";
import { recordAudit } from "../audit/record-audit";
import type { Services } from "../context";
import { conflict, notFound } from "../errors";
import { revokeReplyAddresses } from "../inbound/reply-address";
import { type Client, ClientContact, User } from "../models";
import { settleAfterRemoval } from "./approval-rule";
import { endSessionsOf } from "./end-sessions";

/**
 * Takes a further person off a client (issue 26). Their invite dies with the row; once joined,
 * their user keeps its name on what they wrote but no longer names the client, so it can open
 * nothing and sign in to nothing, and every session of theirs ends (their sockets close on
 * every instance once committed). The first contact is the client itself: it goes only with it.
 */
export async function removeContact(
  services: Services,
  actor: User,
  client: Client,
  contactId: string,
): Promise<void> {
  if (!uuidSchema.safeParse(contactId).success) throw notFound("Contact not found");
  if (contactId === client.id)
    throw conflict("The first contact is the client itself: delete the client to remove them");
  const recorded = await services.db.transaction(async (trx) => {
    const contact = await ClientContact.query(trx)
      .findOne({ id: contactId, clientId: client.id })
      .forUpdate();
    if (!contact) throw notFound("Contact not found");
    await ClientContact.query(trx).deleteById(contact.id);
    await recordAudit(services, trx, {
      workspaceId: client.ownerId,
      actor,
      action: "contact.removed",
      subject: { type: "contact", id: contact.id, label: `${contact.name} (${contact.email})` },
      details: { client: client.name },
    });
    if (!contact.userId) return [];
    await User.query(trx).patch({ clientId: null }).where({ id: contact.userId, role: "client" });
    // A version that waited only for them is approved now (issue 27, rule "everyone").
    const settled = await settleAfterRemoval(services, trx, client.id);
    // Their emailed reply addresses stop working with them.
    await revokeReplyAddresses(trx, client.id, contact.userId, services.clock.now());
    const ended = await endSessionsOf(services, trx, contact.userId);
    return ended ? [...settled, ended] : settled;
  });
  services.events.dispatch(recorded);
}
