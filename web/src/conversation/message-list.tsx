import { Fragment, lazy, memo, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Avatar } from "../ui/avatar";
import { FileIcon } from "../ui/icons";
import type { FileMessage } from "./files-api";
import { dayKey, formatDay, formatFull, formatTime } from "./format-time";
import { authorOf, isViewers, sideOf } from "./message-author";
import type { Message } from "./messages-query";
import { optionalPart } from "../ui/optional-part";
import { NoteLabel } from "./note-label";
import { useChangeable } from "./use-changeable";
import "./message-avatar.css";

/** Messages from one writer this close together form a group: one name and time above them. */
const GROUP_GAP_MS = 5 * 60 * 1000;

/** The file card, previews, approvals and versions load on demand (the portal's first load stays small). */
const FileMessageView = lazy(() => import("./file-message"));
/** Editing and deleting one's own message, and the staff's edit history (issue 28), likewise. */
// Optional parts: a page that lost the server keeps working without them (optionalPart).
const MessageActions = optionalPart(() => import("./message-actions").then((m) => m.default));
const MessageEditor = optionalPart(
  () => import("./message-actions").then((m) => m.MessageEditor),
  ({ message }) => <Bubble content={message.content} />,
);
const EditHistory = optionalPart(
  () => import("./edit-history").then((m) => m.default),
  () => <EditedLabel />,
);

/** "Edited" under a changed message (its history, for the staff, once loaded). */
function EditedLabel() {
  const { t } = useTranslation("conversation");
  return <span className="message__edited">{t("Edited")}</span>;
}

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
  /** The signed-in person's user id: their own recent messages can be edited and deleted. */
  viewerId?: string;
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
  viewerId,
}: MessageListProps) {
  // The day headings follow the reader's language.
  useTranslation("conversation");
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
              viewerId={viewerId}
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
  viewerId: string | undefined;
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
  viewerId,
  ...file
}: MessageItemProps) {
  const { t } = useTranslation("conversation");
  const note = isNote(message);
  const changeable = useChangeable(message, viewerId);
  /** Editing its text in place; `back`: the editor just closed (focus returns to "More"). */
  const [editing, setEditing] = useState<"editing" | "back" | null>(null);
  const classes = [
    "message",
    note && "message--note",
    own ? "message--own" : "message--other",
    grouped && "message--grouped",
    avatar && "message--with-avatar",
    colleague && "message--colleague",
    found && "message--found",
    changeable && "message--changeable",
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
      {message.deleted ? (
        <p className="message__bubble message__bubble--deleted">{t("Message deleted")}</p>
      ) : editing === "editing" ? (
        <MessageEditor
          message={message}
          clientId={file.clientId}
          onDone={() => setEditing("back")}
        />
      ) : (
        <Bubble content={message.content} />
      )}
      {message.fileUrl && <FileBody message={message} {...file} />}
      {message.editedAt && !message.deleted && (
        <p className="message__edited-line">
          {file.viewerRole === "owner" ? (
            <EditHistory message={message} clientId={file.clientId} />
          ) : (
            <EditedLabel />
          )}
        </p>
      )}
      {changeable && editing !== "editing" && (
        <MessageActions
          message={message}
          clientId={file.clientId}
          onEdit={() => setEditing("editing")}
          focusOnShow={editing === "back"}
        />
      )}
      {receipt && (
        <p className={`message__receipt${receipt === "Seen" ? " message__receipt--seen" : ""}`}>
          {receipt === "Seen" ? t("Seen") : t("Sent")}
        </p>
      )}
    </li>
  );
});

/** A message's text (none for a file without one). dir="auto": its own direction, isolated. */
function Bubble({ content }: { content: string | null }) {
  return content ? (
    <p className="message__bubble" dir="auto">
      {content}
    </p>
  ) : null;
}

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
