import type { MessagePayload } from "../../shared/schemas/messages";
import type { Role } from "../../shared/schemas/user";
import { notFound } from "../errors";
import { type Client, Message, NotificationState, User } from "../models";
import { hasPreview } from "../uploads/image-preview";
import { fileUrl } from "./user";

/** Where the conversation shows an image from (never the original): null for other files. */
export function previewUrl(storedName: string | null): string | null {
  return storedName && hasPreview(storedName) ? `/api/download/${storedName}/preview` : null;
}

/** How far each side has read (messages.seq). */
export type ReadState = Record<Role, number>;

/** What presenting a conversation's messages to one viewer needs. */
export interface MessageView {
  viewerRole: Role;
  readState: ReadState;
  senderNames: Record<Role, string>;
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

/**
 * A message presented to the one who has just sent it, with no query: the other side cannot
 * have read what did not exist a moment ago, and the only name it shows is the sender's
 * (the owner's name is not needed when the client sends).
 */
export function presentSentMessage(message: Message, sender: User, client: Client): MessagePayload {
  return presentMessage(message, {
    viewerRole: sender.role,
    readState: { owner: 0, client: 0 },
    senderNames: { owner: sender.role === "owner" ? sender.fullName : "", client: client.name },
  });
}

export async function readStateOf(clientId: string): Promise<ReadState> {
  const rows = await NotificationState.query()
    .select("recipientRole", "lastReadSeq")
    .where("clientId", clientId);
  const state: ReadState = { owner: 0, client: 0 };
  for (const row of rows) state[row.recipientRole] = row.lastReadSeq;
  return state;
}

export async function messageViewFor(viewer: User, client: Client): Promise<MessageView> {
  const ownerName =
    viewer.id === client.ownerId
      ? viewer.fullName
      : (await User.query().select("fullName").findById(client.ownerId).throwIfNotFound()).fullName;
  return {
    viewerRole: viewer.role,
    readState: await readStateOf(client.id),
    senderNames: { owner: ownerName, client: client.name },
  };
}

/**
 * A conversation's messages with their file's name and size, and whether a later version of
 * the file exists, as the presenter wants them.
 */
export function messagesWithFiles(clientId: string) {
  return Message.query()
    .alias("m")
    .select(
      "m.*",
      "f.storedName as fileStoredName",
      "f.originalName as fileName",
      "f.sizeBytes as fileSize",
      Message.raw(
        "not exists (select 1 from messages v where v.version_of = coalesce(m.version_of, m.id) and v.version_number > m.version_number) as is_latest_version",
      ),
    )
    .leftJoin("files as f", "f.id", "m.fileId")
    .where("m.clientId", clientId);
}

export interface PageRequest {
  before?: string;
  after?: string;
  limit: number;
}

/** The seq of a message of this conversation; 404 for any other id. */
async function seqOf(clientId: string, messageId: string): Promise<number> {
  const message = await Message.query().select("seq").findOne({ id: messageId, clientId });
  if (!message) throw notFound("Message not found");
  return message.seq;
}

/**
 * One page of a conversation, oldest to newest, by keyset on (client_id, seq): the newest
 * `limit` messages; or those just before `before` (hasMore: older ones exist); or those right
 * after `after` (catch-up; hasMore: newer ones exist beyond the page). Each is one index range
 * scan, so a page costs the same in a conversation of any length.
 */
export async function messagePage(
  clientId: string,
  page: PageRequest,
): Promise<{ messages: Message[]; hasMore: boolean }> {
  const query = messagesWithFiles(clientId).limit(page.limit + 1);
  if (page.after) {
    query.where("m.seq", ">", await seqOf(clientId, page.after)).orderBy("m.seq", "asc");
  } else {
    if (page.before) query.where("m.seq", "<", await seqOf(clientId, page.before));
    query.orderBy("m.seq", "desc");
  }
  const rows = await query;
  const hasMore = rows.length > page.limit;
  const messages = rows.slice(0, page.limit);
  if (!page.after) messages.reverse();
  return { messages, hasMore };
}
