import { useEffect, useRef, useState } from "react";
import { i18n } from "../i18n/i18n";
import { authorLabel, isViewers } from "./message-author";
import type { Message } from "./messages-query";

interface NewMessageAnnouncerProps {
  /** The conversation's messages, oldest to newest (undefined while the first page loads). */
  messages: Message[] | undefined;
  viewerRole: "owner" | "client";
  /** The viewer's own name: a colleague's message is news too, the viewer's own is not. */
  viewerName?: string;
}

interface Announcement {
  /** The newest announced message: a new key makes the same words (two "ok"s) speak again. */
  id: string;
  text: string;
}

/**
 * What a screen reader says for messages that arrived: the newest one's writer ("Sam Staff
 * (Studio Olivia)" to the client) and words or file.
 */
export function announcementFor(arrived: Message[], viewerRole: "owner" | "client"): string {
  const newest = arrived.at(-1)!;
  // count: "New message from …" for one, "3 new messages from …" for more.
  const count = arrived.length;
  const author = authorLabel(newest, viewerRole);
  if (newest.content)
    return i18n.t("{{count}} new messages from {{author}}: {{text}}", {
      ns: "conversation",
      count,
      author,
      text: newest.content,
    });
  if (newest.fileName)
    return i18n.t("{{count}} new messages from {{author}}: sent a file, {{file}}", {
      ns: "conversation",
      count,
      author,
      file: newest.fileName,
    });
  return i18n.t("{{count}} new messages from {{author}}", { ns: "conversation", count, author });
}

/**
 * A visually hidden polite status that speaks messages arriving from the other side while the
 * conversation is open ("New message from Carla Client: Looks great"). The message list itself
 * stays silent (docs/decisions.md, "Announcing new messages"): it also grows when older pages
 * load above, when a file card finishes loading and when your own message is sent, none of
 * which should be read out. Only messages after the newest one already shown count: the
 * first page, older pages and your own messages are not announced.
 */
export function NewMessageAnnouncer({
  messages,
  viewerRole,
  viewerName,
}: NewMessageAnnouncerProps) {
  /** The newest message on screen: undefined before the first page, null in an empty conversation. */
  const newestShown = useRef<Message | null | undefined>(undefined);
  const [announcement, setAnnouncement] = useState<Announcement | null>(null);

  useEffect(() => {
    if (!messages) return;
    const before = newestShown.current;
    const newest = messages.at(-1) ?? null;
    newestShown.current = newest;
    // The first page is what was there already, not news.
    if (before === undefined || !newest || newest.id === before?.id) return;
    const since = before ? messages.findIndex((message) => message.id === before.id) : -1;
    const later = messages.slice(since + 1);
    const arrived = later.filter(
      (message) =>
        !isViewers(message, viewerRole, viewerName) &&
        (!before || Date.parse(message.createdAt) >= Date.parse(before.createdAt)),
    );
    if (arrived.length > 0) {
      setAnnouncement({ id: arrived.at(-1)!.id, text: announcementFor(arrived, viewerRole) });
    }
  }, [messages, viewerRole, viewerName]);

  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      {announcement && <span key={announcement.id}>{announcement.text}</span>}
    </div>
  );
}
