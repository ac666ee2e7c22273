import { MESSAGE_CHANGE_MESSAGES, withinEditWindow } from "../../shared/message-changes";
import { conflict, forbidden, notFound } from "../errors";
import type { User } from "../models";
import type { ClientSource } from "./clients";
import { isStaffOf } from "./conversation-sides";
import { findMessageInConversation, type MessageInConversation, messageVisible } from "./feedback";
import { definePolicy } from "./policy";

/** A message and its conversation, as the actor asks to change it at `now` (services.clock). */
export interface MessageChange extends MessageInConversation {
  now: Date;
}

/**
 * Changing one's own message (issue 28, point 3): 404 for a message outside the actor's
 * conversations (an internal note to the client); 409 once it is deleted; 403 for someone
 * else's message, even by a colleague or another contact of the same client; 409 once the
 * window (EDIT_WINDOW_MINUTES from sending, shared/message-changes.ts) has passed. Whether a file may still go (no
 * decision yet) is decided under the message's lock (commands/change-message.ts).
 */
const ownRecentMessage =
  (tooLate: string, notAuthor: string) => (actor: User, subject: MessageChange | undefined) => {
    const seen = messageVisible(actor, subject);
    if (seen !== true) return seen;
    if (subject!.message.deletedAt) return conflict(MESSAGE_CHANGE_MESSAGES.deleted);
    if (subject!.message.senderId !== actor.id) return forbidden(notAuthor);
    return withinEditWindow(subject!.message.createdAt, subject!.now) || conflict(tooLate);
  };

export const messageChangesPolicy = definePolicy({
  edit: ownRecentMessage(
    MESSAGE_CHANGE_MESSAGES.editTooLate,
    MESSAGE_CHANGE_MESSAGES.editNotAuthor,
  ),
  delete: ownRecentMessage(
    MESSAGE_CHANGE_MESSAGES.deleteTooLate,
    MESSAGE_CHANGE_MESSAGES.deleteNotAuthor,
  ),
  /** A message's previous texts: the workspace's staff who have the conversation only. */
  readEdits: (actor: User, subject: MessageChange | undefined) => {
    const seen = messageVisible(actor, subject);
    if (seen !== true) return seen;
    return isStaffOf(actor, subject!.client) || notFound("Message not found");
  },
});

export type MessageChangeAction = Parameters<typeof messageChangesPolicy.authorize>[1];

/** Loads the message named by `id` and checks that `actor` may do `action` to it at `now`. */
export async function authorizedMessageChange(
  source: ClientSource,
  actor: User,
  action: MessageChangeAction,
  id: string | undefined,
  now: Date,
): Promise<MessageChange> {
  const found = await findMessageInConversation(source, id);
  const subject = found && { ...found, now };
  messageChangesPolicy.authorize(actor, action, subject);
  return subject!;
}
