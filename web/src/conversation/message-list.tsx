import { Fragment, lazy, memo, Suspense } from "react";
import { Avatar } from "../ui/avatar";
import { FileIcon } from "../ui/icons";
import type { FileMessage } from "./files-api";
import { dayKey, formatDay, formatFull, formatTime } from "./format-time";
import { authorOf, isViewers, sideOf } from "./message-author";
import type { Message } from "./messages-query";
import { NoteLabel } from "./note-label";
import "./message-avatar.css";

/** Messages from one writer this close together form a group: one name and time above them. */
const GROUP_GAP_MS = 5 * 60 * 1000;

/** The file card, previews, approvals and versions load on demand (the portal's first load stays small). */
const FileMessageView = lazy(() => import("./file-message"));

interface MessageListProps {
  messages: Message[];
  viewerRole: "owner" | "client";
  clientId: string;
  /** The client's name as the viewer knows it ("You" for the client). */
  clientName: string;
  /**
   * The viewer's own name: their side's messages written by someone else (a colleague) carry
   * that person's name and picture. Without it, every message of the viewer's side is theirs.
   */
  viewerName?: string;
  /**
   * Pictures beside the other side's messages: each one's writer, or this (the other side's
   * picture or initials) for a message without a writer's name (a server before authors).
   */
  otherAvatar?: PersonAvatar;
  /** A message a search opened: highlighted. */
  foundId?: string | null;
}

/** Whose picture: a name for the initials, and the picture's address when there is one. */
export interface PersonAvatar {
  name: string;
  imageUrl: string | null;
}

/**
 * Which of the viewer's own messages carry a receipt: "Seen" on the newest one the other side
 * has read, "Sent" on the newest one when it is not read yet (as in most chat apps, rather
 * than a receipt under every message).
 */
function receipts(messages: Message[], viewerRole: string): Map<string, "Seen" | "Sent"> {
  const marks = new Map<string, "Seen" | "Sent">();
  // An internal note (issue 26) is not for the client: it never carries a receipt.
  const own = messages.filter((message) => message.senderRole === viewerRole && !isNote(message));
  const newestOwn = own.at(-1);
  const newestRead = own.findLast((message) => message.read);
  if (newestRead) marks.set(newestRead.id, "Seen");
  if (newestOwn && !newestOwn.read) marks.set(newestOwn.id, "Sent");
  return marks;
}

export function MessageList({
  messages,
  viewerRole,
  clientId,
  clientName,
  viewerName,
  otherAvatar,
  foundId,
}: MessageListProps) {
  const marks = receipts(messages, viewerRole);

  return (
    <ol className="message-list">
      {messages.map((message, index) => {
        const previous = messages[index - 1];
        const newDay = !previous || dayKey(previous.createdAt) !== dayKey(message.createdAt);
        const grouped =
          !newDay &&
          previous !== undefined &&
          previous.senderRole === message.senderRole &&
          isNote(previous) === isNote(message) &&
          authorOf(previous) === authorOf(message) &&
          Date.parse(message.createdAt) - Date.parse(previous.createdAt) < GROUP_GAP_MS;
        const own = message.senderRole === viewerRole;
        const colleague = own && !isViewers(message, viewerRole, viewerName);
        return (
          <Fragment key={message.id}>
            {newDay && (
              <li className="message-list__day">
                <span>{formatDay(message.createdAt)}</span>
              </li>
            )}
            <MessageItem
              message={message}
              own={own}
              grouped={grouped}
              avatar={own ? undefined : otherAvatar && (authorAvatar(message) ?? otherAvatar)}
              colleague={colleague ? authorAvatar(message) : undefined}
              side={sideOf(message, viewerRole)}
              receipt={marks.get(message.id)}
              found={message.id === foundId}
              viewerRole={viewerRole}
              clientId={clientId}
              clientName={clientName}
            />
          </Fragment>
        );
      })}
    </ol>
  );
}

/** An internal note of the staff (issue 26): only the owner's side ever receives one. */
const isNote = (message: Message) => message.visibility === "internal";

/** The writer's name and picture, when the server names them. */
function authorAvatar(message: Message): PersonAvatar | undefined {
  return message.authorName === undefined
    ? undefined
    : { name: message.authorName, imageUrl: message.authorPicture ?? null };
}

interface MessageItemProps extends Omit<FileBodyProps, "message"> {
  message: Message;
  own: boolean;
  /** Follows a message of the same writer: the name and time are not repeated on screen. */
  grouped: boolean;
  receipt: "Seen" | "Sent" | undefined;
  /** The other side's writer's picture, at the start of a group (the name beside it says who it is). */
  avatar?: PersonAvatar;
  /** On the viewer's side, written by someone else: their picture, small, beside their name. */
  colleague?: PersonAvatar;
  /** The other side's name after the writer's, where it says more (sideOf). */
  side: string | null;
  found: boolean;
}

/**
 * One message. Memoized: a long conversation re-renders only the messages that changed when a
 * page is added or a message arrives (their props are the same objects otherwise).
 */
const MessageItem = memo(function MessageItem({
  message,
  own,
  grouped,
  receipt,
  avatar,
  colleague,
  side,
  found,
  ...file
}: MessageItemProps) {
  const note = isNote(message);
  const classes = [
    "message",
    note && "message--note",
    own ? "message--own" : "message--other",
    grouped && "message--grouped",
    avatar && "message--with-avatar",
    colleague && "message--colleague",
    found && "message--found",
  ]
    .filter(Boolean)
    .join(" ");
  const time = (
    <time dateTime={message.createdAt} title={formatFull(message.createdAt)}>
      {formatTime(message.createdAt)}
    </time>
  );
  return (
    <li className={classes} data-message-id={message.id} aria-current={found || undefined}>
      {avatar && !grouped && (
        <span className="message__avatar">
          <Avatar name={avatar.name} imageUrl={avatar.imageUrl} size={32} />
        </span>
      )}
      <p className={grouped ? "visually-hidden" : "message__meta"}>
        {colleague && !grouped && (
          <span className="message__meta-avatar">
            <Avatar name={colleague.name} imageUrl={colleague.imageUrl} size={20} />
          </span>
        )}
        <span className="message__sender">
          <span className="message__author">{authorOf(message)}</span>
          {side && (
            <>
              <span className="message__dot" aria-hidden="true">
                ·
              </span>
              <span className="visually-hidden">, </span>
              <span className="message__side">{side}</span>
            </>
          )}
        </span>
        <span className="message__time">{time}</span>
      </p>
      {note && <NoteLabel />}
      {/* dir="auto": its own direction, isolated (conversation.css): overrides stay inside. */}
      {message.content && (
        <p className="message__bubble" dir="auto">
          {message.content}
        </p>
      )}
      {message.fileUrl && <FileBody message={message} {...file} />}
      {receipt && (
        <p className={`message__receipt${receipt === "Seen" ? " message__receipt--seen" : ""}`}>
          {receipt}
        </p>
      )}
    </li>
  );
});

interface FileBodyProps {
  message: FileMessage;
  viewerRole: "owner" | "client";
  clientId: string;
  clientName: string;
}

/** A file message, drawn by the lazily loaded file code (a name until it arrives). */
function FileBody(props: FileBodyProps) {
  return (
    <Suspense
      fallback={
        <p className="message__file">
          <FileIcon />
          {props.message.fileName}
        </p>
      }
    >
      <FileMessageView {...props} />
    </Suspense>
  );
}
