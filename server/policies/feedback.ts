import { uuidSchema } from "../../shared/schemas/common";
import { forbidden, notFound } from "../errors";
import { type Client, Message, type User } from "../models";
import { type ClientSource, findClient } from "./clients";
import { isClientOf, isStaffOf, mayRead } from "./conversation-sides";
import { definePolicy } from "./policy";

/** A message together with its conversation, as the rules below see it. */
export interface MessageInConversation {
  message: Message;
  client: Client;
}

/**
 * A message exists for the actor only as a member of its conversation, and one of the side
 * that may read it (an internal note is not the client's); else 404.
 */
export const messageVisible = (actor: User, subject: MessageInConversation | undefined) =>
  (subject !== undefined &&
    (isStaffOf(actor, subject.client) || isClientOf(actor, subject.client)) &&
    mayRead(actor.role, subject.message.visibility)) ||
  notFound("Message not found");

/**
 * Files sent for approval. 404 for a message outside the actor's conversations; 403 for what
 * the actor's side of the conversation does not do.
 */
export const feedbackPolicy = definePolicy({
  /** Only the owner asks for feedback on a file (spec: "only owners upload via the upload call"). */
  requestFeedback: (actor: User, client: Client) =>
    isStaffOf(actor, client) || forbidden("Only the owner can ask for feedback on a file"),
  /** Approve or Needs Work: the client user of the conversation only. */
  decide: (actor: User, subject: MessageInConversation | undefined) => {
    const seen = messageVisible(actor, subject);
    if (seen !== true) return seen;
    return isClientOf(actor, subject!.client) || forbidden("Only the client can give feedback");
  },
  /** A new version answers the client's Needs Work: the owner only. */
  uploadVersion: (actor: User, subject: MessageInConversation | undefined) => {
    const seen = messageVisible(actor, subject);
    if (seen !== true) return seen;
    return (
      isStaffOf(actor, subject!.client) || forbidden("Only the owner can upload a new version")
    );
  },
  readVersions: messageVisible,
  /** A file's due date (issue 27): the staff of the conversation set it; its client reads it. */
  changeDueDate: (actor: User, subject: MessageInConversation | undefined) => {
    const seen = messageVisible(actor, subject);
    if (seen !== true) return seen;
    return isStaffOf(actor, subject!.client) || forbidden("Only the owner can change the due date");
  },
  /** The approval record (issue 27): of an approved version, to whoever may read the file. */
  readApprovalRecord: (actor: User, subject: MessageInConversation | undefined) => {
    const seen = messageVisible(actor, subject);
    if (seen !== true) return seen;
    return subject!.message.feedbackStatus === "approved" || notFound("No approval record");
  },
});

export type FeedbackAction = Parameters<typeof feedbackPolicy.authorize>[1];

/** The message named in a path with its conversation; undefined when unknown or malformed. */
export async function findMessageInConversation(
  source: ClientSource,
  id: string | undefined,
): Promise<MessageInConversation | undefined> {
  if (!id || !uuidSchema.safeParse(id).success) return undefined;
  const message = await Message.query(source.db).findById(id);
  if (!message) return undefined;
  const client = await findClient(source, message.clientId);
  return client ? { message, client } : undefined;
}

/** Loads the message named by `id` and checks that `actor` may do `action` to it. */
export async function authorizedMessage(
  source: ClientSource,
  actor: User,
  action: Exclude<FeedbackAction, "requestFeedback">,
  id: string | undefined,
): Promise<MessageInConversation> {
  const subject = await findMessageInConversation(source, id);
  feedbackPolicy.authorize(actor, action, subject);
  return subject!;
}
