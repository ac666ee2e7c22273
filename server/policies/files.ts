import type { Knex } from "knex";
import { notFound } from "../errors";
import { Message, type StoredFile, User } from "../models";
import { type ClientSource, findClient } from "./clients";
import { isClientOf, isStaffOf } from "./conversation-sides";
import { definePolicy } from "./policy";

/**
 * A clients row as far as access is concerned: which conversation, who owns it, and (for a
 * user's image) the one of its contacts' users the question is about.
 */
export interface ClientLink {
  id: string;
  ownerId: string;
  userId?: string | null;
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
  /**
   * For a profile picture (the uploader's current one) that no clients row shares: the
   * uploader is on the actor's team (the same workspace), or on the owner's side and has
   * written in the actor's conversation (the portal shows it beside their messages).
   */
  picturePeer: "colleague" | "author" | null;
}

export async function loadFileAccess(
  source: ClientSource,
  actor: User,
  file: StoredFile,
): Promise<FileAccess> {
  const { db } = source;
  const none = { conversation: null, uploaderLinks: [], picturePeer: null };
  if (file.clientId) {
    const conversation = await findClient(source, file.clientId);
    return { ...none, file, conversation: conversation ?? null };
  }
  const uploader = file.uploadedBy;
  if (!uploader || uploader === actor.id) return { ...none, file };
  // Each client's contacts (issue 26) are the users naming it.
  const uploaderLinks: ClientLink[] = await db("clients as c")
    .join("users as person", "person.clientId", "c.id")
    .select("c.id", "c.ownerId", "person.id as userId")
    .whereNull("c.deletedAt")
    .where((query) =>
      query
        .where({ "c.ownerId": uploader, "person.id": actor.id })
        // The workspace's staff see its clients' pictures (issue 26).
        .orWhere({ "c.ownerId": actor.workspaceId ?? actor.id, "person.id": uploader })
        // A client's contacts see each other's.
        .orWhere((inner) =>
          inner.where({ "person.id": uploader }).where("c.id", actor.clientId ?? null),
        ),
    );
  if (uploaderLinks.length > 0) return { ...none, file, uploaderLinks };
  return { ...none, file, picturePeer: await picturePeer(db, actor, uploader, file) };
}

/** How the actor knows the owner-side uploader of a profile picture, if they do (FileAccess). */
async function picturePeer(
  db: Knex,
  actor: User,
  uploader: string,
  file: StoredFile,
): Promise<FileAccess["picturePeer"]> {
  const owner = await User.query(db)
    .select("workspaceId")
    .findOne({ id: uploader, profilePicture: file.storedName, role: "owner" });
  if (!owner) return null;
  if (actor.workspaceId !== null && owner.workspaceId === actor.workspaceId) return "colleague";
  if (actor.role !== "client") return null;
  const wrote = await Message.query(db)
    .alias("m")
    .select("m.id")
    .join("clients as c", "c.id", "m.clientId")
    .where({ "c.id": actor.clientId, "m.senderId": uploader })
    .first();
  return wrote ? "author" : null;
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
        (link.ownerId === (actor.workspaceId ?? actor.id) && link.userId === file.uploadedBy) ||
        (link.userId === file.uploadedBy && isClientOf(actor, link)),
    ));

/**
 * Who may fetch a stored file. A conversation file: that conversation's owner and client user.
 * A user's image (profile picture, company logo): the uploader, the uploader's clients, and
 * the uploader's owner; and a team member's profile picture also to their colleagues and to
 * the client users of the conversations they wrote in (each message shows its author).
 * Everyone else gets a 404, so a file's existence is not revealed.
 */
export const filesPolicy = definePolicy({
  download: (actor: User, access: FileAccess) =>
    (access.file.clientId
      ? access.conversation !== null && isMember(actor, access.conversation)
      : seesUploader(actor, access) || access.picturePeer !== null) || notFound(),
});
