import { randomUUID } from "node:crypto";
import { type AddContactInput, MAX_CONTACTS } from "../../shared/schemas/contacts";
import { recordAudit } from "../audit/record-audit";
import { InviteTokens } from "../auth/invite-tokens";
import type { Services } from "../context";
import { badRequest, conflict } from "../errors";
import { Client, ClientContact, type User } from "../models";
import { workspaceOwnerOf } from "../queries/workspace-owner";
import { inviteMailFor } from "./invite-mail";
import { clientLanguageOf } from "../i18n/recipient-language";

export interface AddedContact {
  contact: ClientContact;
  token: string;
}

/**
 * Adds a further person to a client (issue 26) with their own single-use invite link, joined
 * through POST /api/invite/{token} as the client's own. The client row is locked for the count
 * and the insert: two adds at the same moment cannot pass the limit or add one address twice.
 * The invite email, when asked for, goes to the outbox with the contact: both or neither.
 */
export async function addContact(
  services: Services,
  actor: User,
  client: Client,
  input: AddContactInput,
): Promise<AddedContact> {
  const id = randomUUID();
  const invite = new InviteTokens(services.config.sessionSecret).issue(id);
  // Branded as the client's own invite: the workspace's owner holds the plan and branding.
  const mail = input.sendInviteEmail
    ? await inviteMailFor(
        services,
        await workspaceOwnerOf(services.db, actor),
        // The contact's invite is in their client's language.
        { ...input, language: await clientLanguageOf(services.db, client.id) },
        invite.token,
      )
    : null;
  return services.db.transaction(async (trx) => {
    const locked = await Client.query(trx).findById(client.id).forUpdate().throwIfNotFound();
    const others = await ClientContact.query(trx).select("email").where("clientId", client.id);
    const address = input.email.toLowerCase();
    if (
      [locked.email, ...others.map((other) => other.email)].some((e) => e.toLowerCase() === address)
    )
      throw conflict("This person is already a contact of this client");
    if (others.length + 1 >= MAX_CONTACTS)
      throw badRequest("A client can have up to {{max}} contacts", { max: MAX_CONTACTS });
    const contact = await ClientContact.query(trx).insertAndFetch({
      id,
      clientId: client.id,
      name: input.name,
      email: input.email,
      inviteTokenHash: invite.hash,
      inviteTokenEncrypted: invite.encrypted,
      inviteIssuedAt: services.clock.now(),
    });
    if (mail) await services.outbox.enqueue(trx, mail, "invite");
    await recordAudit(services, trx, {
      workspaceId: client.ownerId,
      actor,
      action: "contact.added",
      subject: { type: "contact", id: contact.id, label: `${contact.name} (${contact.email})` },
      details: { client: locked.name },
    });
    return { contact, token: invite.token };
  });
}
