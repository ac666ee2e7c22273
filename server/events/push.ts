import type { Services } from "../context";
import type { DomainEvent, EventListener, RecordedEvent } from "../domain-events/events";
import { type Client, Message, User } from "../models";
import { VISIBILITIES } from "../../shared/schemas/message-payload";
import { findClient } from "../policies/clients";
import { mayRead, staffRecipientIds } from "../policies/conversation-sides";
import { pushNewMessage } from "../push/push-new-message";
import { clientPeopleIds } from "../queries/list-contacts";

type MessageEvent = Extract<DomainEvent, { messageId: string; senderId: string }>;

/**
 * Pushes a new message to its recipients' browsers that have no open socket (server/push):
 * the client's people, or the staff the conversation's emails go to.
 * Each notification is tagged with its conversation, so one sent again replaces the first on
 * the device instead of adding a second.
 */
export const pushListener: EventListener<Services> = {
  name: "push",
  handles: ["MessageCreated", "FileUploaded", "VersionUploaded"],
  async handle(services, recorded) {
    const parts = await messageParts(services, recorded as RecordedEvent<MessageEvent>);
    // An internal note (issue 26) reaches no one's device: the client may never read it, and
    // the staff are not pushed their own side's messages.
    // Nor does a message deleted before its push went (an event run again later, issue 28).
    if (!parts || !mayRead("client", parts.message.visibility) || parts.message.deletedAt) return;
    const { sender, client, message } = parts;
    // The staff's message goes to every one of the client's people who joined (issue 26),
    // the client's to the staff its emails go to.
    const recipients =
      sender.role === "client"
        ? staffRecipientIds(client)
        : client.joinedAt
          ? await clientPeopleIds(services.db, client.id)
          : [];
    pushNewMessage(services, recipients, sender, client, message);
  },
};

/** The sender, the conversation and the message: as the command had them, else read now. */
async function messageParts(
  services: Services,
  { event, loaded }: RecordedEvent<MessageEvent>,
): Promise<{ sender: User; client: Client; message: Message } | null> {
  if (loaded?.sender && loaded.client && loaded.message)
    return loaded as { sender: User; client: Client; message: Message };
  const [sender, client, message] = await Promise.all([
    User.query(services.db).findById(event.senderId),
    // With its assignees (the staff to tell), as the client cache keeps them.
    findClient(services, event.clientId),
    Message.ofConversation(services.db, event.clientId, VISIBILITIES).findOne(
      "m.id",
      event.messageId,
    ),
  ]);
  // Gone since (a deleted client or account): nobody to tell.
  return sender && client && message ? { sender, client, message } : null;
}
