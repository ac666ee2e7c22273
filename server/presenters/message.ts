import { ownerNameForClient } from "../../shared/owner-name";
import type { MessagePayload, NewestMessagePage } from "../../shared/schemas/messages";
import type { Role } from "../../shared/schemas/user";
import type { MessageViews } from "../realtime/events";
import type { Client, Message, User } from "../models";
import { hasPreview } from "../uploads/image-preview";
import type { MessageView } from "../queries/load-conversation";
import { fileUrl } from "./user";

/** Where the conversation shows an image from (never the original): null for other files. */
export function previewUrl(storedName: string | null): string | null {
  return storedName && hasPreview(storedName) ? `/api/download/${storedName}/preview` : null;
}

/** Every field of a message that leaves the server, listed. */
export function presentMessage(message: Message, view: MessageView): MessagePayload {
  const other: Role = view.viewerRole === "owner" ? "client" : "owner";
  // Own messages: has the other side read it? Theirs: has the viewer?
  const readBy = message.senderRole === view.viewerRole ? other : view.viewerRole;
  return {
    id: message.id,
    content: message.content,
    fileUrl: fileUrl(message.fileStoredName ?? null),
    previewUrl: previewUrl(message.fileStoredName ?? null),
    fileName: message.fileName ?? null,
    senderRole: message.senderRole,
    senderName: view.senderNames[message.senderRole],
    requiresFeedback: message.requiresFeedback,
    feedbackStatus: message.feedbackStatus,
    feedbackComment: message.feedbackComment,
    createdAt: new Date(message.createdAt).toISOString(),
    fileSize: message.fileSize == null ? null : Number(message.fileSize),
    feedbackAt: message.feedbackAt ? new Date(message.feedbackAt).toISOString() : null,
    feedbackByName:
      message.feedbackAt && message.feedbackStatus !== "pending" ? view.senderNames.client : null,
    versionOf: message.versionOf ?? null,
    versionNumber: message.versionNumber ?? 1,
    isLatestVersion: message.isLatestVersion ?? true,
    read: message.seq <= view.readState[readBy],
  };
}

/** A page of messages as a first screen carries it: the messages and whether older ones exist. */
export function presentMessagePage(
  page: { messages: Message[]; hasMore: boolean },
  view: MessageView,
): NewestMessagePage {
  return {
    messages: page.messages.map((message) => presentMessage(message, view)),
    hasMore: page.hasMore,
  };
}

/**
 * A message presented to the one who has just sent it (text or file), from the rows just
 * written: the other side cannot have read what did not exist a moment ago, and the only name
 * it shows is the sender's (the owner's name is not needed when the client sends).
 */
export function presentSentMessage(message: Message, sender: User, client: Client): MessagePayload {
  return presentMessage(message, {
    viewerRole: sender.role,
    readState: { owner: 0, client: 0 },
    senderNames: { owner: sender.role === "owner" ? sender.fullName : "", client: client.name },
  });
}

/**
 * A message just sent, as each of `sides` sees it in the conversation (for its new_message
 * event), from the rows just written: unread by anyone, and the owner named as each side names
 * them (the portal shows the company name when there is one).
 */
export function presentNewMessage(
  message: Message,
  sender: User,
  client: Client,
  sides: Role[],
): MessageViews {
  const views: MessageViews = {};
  for (const side of sides) {
    const ownerName =
      sender.role !== "owner"
        ? ""
        : side === "owner"
          ? sender.fullName
          : ownerNameForClient(sender);
    views[side] = presentMessage(message, {
      viewerRole: side,
      readState: { owner: 0, client: 0 },
      senderNames: { owner: ownerName, client: client.name },
    });
  }
  return views;
}
