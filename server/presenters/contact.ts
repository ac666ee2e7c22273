import type { AddedContactPayload, ContactPayload } from "../../shared/schemas/contacts";
import type { ClientContact } from "../models";
import type { ContactRow } from "../queries/list-contacts";

const isoOrNull = (at: Date | string | null) => (at === null ? null : new Date(at).toISOString());

/** One of a client's people, as both sides of the conversation list them. */
export function presentContact(contact: ContactRow): ContactPayload {
  return {
    id: contact.id,
    name: contact.name,
    email: contact.email,
    primary: contact.primary,
    joinedAt: isoOrNull(contact.joinedAt),
    lastReadSeq: contact.lastReadSeq,
    readAt: isoOrNull(contact.readAt),
  };
}

/** A contact just added, with their invite link (shown to the staff this once, and emailed). */
export function presentAddedContact(
  contact: ClientContact,
  link: { inviteUrl: string; inviteToken: string },
): AddedContactPayload {
  return {
    id: contact.id,
    name: contact.name,
    email: contact.email,
    inviteUrl: link.inviteUrl,
    inviteToken: link.inviteToken,
  };
}
