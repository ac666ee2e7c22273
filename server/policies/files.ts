import { notFound } from "../errors";
import { Client, type StoredFile, type User } from "../models";
import { type ClientSource, findClient } from "./clients";
import { isClientOf, isStaffOf } from "./conversation-sides";
import { definePolicy } from "./policy";

/** A clients row as far as access is concerned: who owns the conversation, who is the client. */
export interface ClientLink {
  ownerId: string;
  userId: string | null;
  /** For a conversation: the staff assigned to it (a member sees only those). */
  assigneeIds?: string[];
}

/** A file with the facts the download rule needs, gathered by loadFileAccess. */
export interface FileAccess {
  file: StoredFile;
  /** For a conversation file: its conversation. */
  conversation: ClientLink | null;
  /** For a user's image: the clients rows that join its uploader and the actor, if any. */
  uploaderLinks: ClientLink[];
}

export async function loadFileAccess(
  source: ClientSource,
  actor: User,
  file: StoredFile,
): Promise<FileAccess> {
  const { db } = source;
  if (file.clientId) {
    const conversation = await findClient(source, file.clientId);
    return { file, conversation: conversation ?? null, uploaderLinks: [] };
  }
  const uploader = file.uploadedBy;
  if (!uploader || uploader === actor.id) return { file, conversation: null, uploaderLinks: [] };
  const uploaderLinks = await Client.query(db)
    .select("ownerId", "userId")
    .where((query) =>
      query
        .where({ ownerId: uploader, userId: actor.id })
        .orWhere((inner) => inner.where({ ownerId: actor.id, userId: uploader })),
    );
  return { file, conversation: null, uploaderLinks };
}

const isMember = (actor: User, conversation: ClientLink) =>
  isStaffOf(actor, conversation) || isClientOf(actor, conversation);

/** The actor is the uploader, or one of them is the other's owner through a clients row. */
const seesUploader = (actor: User, { file, uploaderLinks }: FileAccess) =>
  file.uploadedBy !== null &&
  (file.uploadedBy === actor.id ||
    uploaderLinks.some(
      (link) =>
        (link.ownerId === file.uploadedBy && link.userId === actor.id) ||
        (link.ownerId === actor.id && link.userId === file.uploadedBy),
    ));

/**
 * Who may fetch a stored file. A conversation file: that conversation's owner and client user.
 * A user's image (profile picture, company logo): the uploader, the uploader's clients, and
 * the uploader's owner. Everyone else gets a 404, so a file's existence is not revealed.
 */
export const filesPolicy = definePolicy({
  download: (actor: User, access: FileAccess) =>
    (access.file.clientId
      ? access.conversation !== null && isMember(actor, access.conversation)
      : seesUploader(actor, access)) || notFound(),
});
