import { ownerNameForClient } from "../../shared/owner-name";
import type { MessagePayload, NewestMessagePage } from "../../shared/schemas/messages";
import type { Role } from "../../shared/schemas/user";
import type { MessageViews } from "../realtime/events";
import type { Client, Message, User } from "../models";
import { hasPreview } from "../uploads/image-preview";
import type { MessageView } from "../queries/load-conversation";
import { presentApprovals } from "./approvals";
import { fileUrl } from "./user";

/** Where the conversation shows an image from (never the original): null for other files. */
export function previewUrl(storedName: string | null): string | null {
  return storedName && hasPreview(storedName) ? `/api/download/${storedName}/preview` : null;
}

/** Who wrote a message: their own name and profile picture (its stored name). */
export interface Author {
  fullName: string;
  profilePicture: string | null;
}

/** The writer the conversation's queries join (Message.withAuthor); null once they are gone. */
function joinedAuthor(message: Message): Author | null {
  return message.authorFullName == null
    ? null
    : { fullName: message.authorFullName, profilePicture: message.authorPicture ?? null };
}

/**
 * Every field of a message that leaves the server, listed. `author`: who wrote it, when the
 * caller has the row at hand (a message just sent), else the joined columns. Without a writer
 * (their row deleted) the message is named by its side, as `senderName` is.
 */
export function presentMessage(
  message: Message,
  view: MessageView,
  author: Author | null = joinedAuthor(message),
): MessagePayload {
  const other: Role = view.viewerRole === "owner" ? "client" : "owner";
  // Own messages: has the other side read it? Theirs: has the viewer?
  const readBy = message.senderRole === view.viewerRole ? other : view.viewerRole;
  const authorName = author?.fullName ?? view.senderNames[message.senderRole];
  return {
    id: message.id,
    content: message.content,
    fileUrl: fileUrl(message.fileStoredName ?? null),
    previewUrl: previewUrl(message.fileStoredName ?? null),
    fileName: message.fileName ?? null,
    senderRole: message.senderRole,
    // The owner's side names its own people (the one who wrote it); the client sees the
    // owner's side as the portal names it (the agency's company name).
    senderName:
      message.senderRole === "owner" && view.viewerRole === "owner"
        ? authorName
        : view.senderNames[message.senderRole],
    requiresFeedback: message.requiresFeedback,
    feedbackStatus: message.feedbackStatus,
    feedbackComment: message.feedbackComment,
    createdAt: new Date(message.createdAt).toISOString(),
    fileSize: message.fileSize == null ? null : Number(message.fileSize),
    feedbackAt: message.feedbackAt ? new Date(message.feedbackAt).toISOString() : null,
    // Which of the client's people decided (issue 26); the client's name once they are gone.
    feedbackByName:
      message.feedbackAt && message.feedbackStatus !== "pending"
        ? (message.deciderFullName ?? view.senderNames.client)
        : null,
    versionOf: message.versionOf ?? null,
    versionNumber: message.versionNumber ?? 1,
    isLatestVersion: message.isLatestVersion ?? true,
    // Review marks still open (issue 27): the staff also count their own staff-only ones.
    openMarks:
      Number(message.openMarks ?? 0) +
      (view.viewerRole === "owner" ? Number(message.openInternalMarks ?? 0) : 0),
    read: message.seq <= view.readState[readBy],
    authorName,
    authorPicture: fileUrl(author?.profilePicture ?? null),
    // Only the owner's side ever receives `internal` (policies/conversation-sides.ts).
    visibility: message.visibility ?? "client",
    dueDate: message.dueDate ?? null,
    ...presentApprovals(message),
    authorId: message.senderId ?? null,
    editedAt: message.editedAt ? new Date(message.editedAt).toISOString() : null,
    // Its text and file were emptied when it was deleted (commands/change-message.ts).
    deleted: Boolean(message.deletedAt),
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
  return presentMessage(
    message,
    {
      viewerRole: sender.role,
      readState: { owner: 0, client: 0 },
      senderNames: { owner: sender.role === "owner" ? sender.fullName : "", client: client.name },
    },
    sender,
  );
}

/**
 * A message just sent, as each of `sides` sees it in the conversation (for its new_message
 * event), from the rows just written: unread by anyone, and the owner's side named as each side
 * names it: the writer for the owner's side, the agency for the portal (the company name of
 * `workspaceOwner`, whose row holds the branding, when there is one). `workspaceOwner` is the
 * sender unless a team member wrote it.
 */
export function presentNewMessage(
  message: Message,
  sender: User,
  client: Client,
  sides: Role[],
  workspaceOwner: Pick<User, "fullName" | "companyName"> = sender,
): MessageViews {
  const views: MessageViews = {};
  for (const side of sides) {
    const ownerName =
      sender.role !== "owner"
        ? ""
        : side === "owner"
          ? sender.fullName
          : ownerNameForClient(workspaceOwner);
    views[side] = presentMessage(
      message,
      {
        viewerRole: side,
        readState: { owner: 0, client: 0 },
        senderNames: { owner: ownerName, client: client.name },
      },
      sender,
    );
  }
  return views;
}
