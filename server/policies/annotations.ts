import { forbidden, notFound } from "../errors";
import { type Annotation, Message, type User } from "../models";
import type { ClientSource } from "./clients";
import { isStaffOf, mayRead } from "./conversation-sides";
import { findMessageInConversation, type MessageInConversation, messageVisible } from "./feedback";
import { definePolicy } from "./policy";

/** A mark together with the file version it is on. */
export interface MarkInConversation extends MessageInConversation {
  annotation: Annotation;
}

const VERSION_NOT_FOUND = "File version not found";

/**
 * A file version exists for the actor as the file does (server/policies/feedback.ts): a member
 * of its conversation, on a side that may read it. Marks are made on files sent for approval.
 */
const versionVisible = (actor: User, subject: MessageInConversation | undefined) =>
  (messageVisible(actor, subject) === true &&
    subject!.message.fileId !== null &&
    subject!.message.requiresFeedback) ||
  notFound(VERSION_NOT_FOUND);

/** A staff-only mark does not exist for the client: 404, as a note is not theirs. */
const markVisible = (actor: User, subject: MarkInConversation | undefined) => {
  const seen = versionVisible(actor, subject);
  if (seen !== true) return notFound("Mark not found");
  return mayRead(actor.role, subject!.annotation.visibility) || notFound("Mark not found");
};

/**
 * Review marks (issue 27): both sides of a conversation (its staff and the client's people)
 * read, make, answer, resolve and reopen the marks on its files sent for approval; a mark only
 * the team sees is made by the staff.
 */
export const annotationsPolicy = definePolicy({
  read: versionVisible,
  create: (actor: User, subject: MessageInConversation & { internal: boolean }) => {
    const seen = versionVisible(actor, subject);
    if (seen !== true) return seen;
    return (
      !subject.internal ||
      isStaffOf(actor, subject.client) ||
      forbidden("Only the team can make internal marks")
    );
  },
  reply: markVisible,
  resolve: markVisible,
});

/**
 * Version `versionNumber` of the file thread that message `messageId` belongs to, with its
 * conversation; undefined when either is unknown.
 */
export async function findFileVersion(
  source: ClientSource,
  messageId: string | undefined,
  versionNumber: string | undefined,
): Promise<MessageInConversation | undefined> {
  const number = Number(versionNumber);
  if (!Number.isSafeInteger(number) || number < 1) return undefined;
  const found = await findMessageInConversation(source, messageId);
  if (!found) return undefined;
  const rootId = found.message.versionOf ?? found.message.id;
  const version = await Message.query(source.db)
    .where({ clientId: found.client.id, versionNumber: number })
    .where((query) => query.where("id", rootId).orWhere("versionOf", rootId))
    .first();
  return version ? { message: version, client: found.client } : undefined;
}
