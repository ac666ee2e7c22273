import type { InfiniteData } from "@tanstack/react-query";
import type { MessagePayload } from "../../../shared/schemas/messages";

/**
 * How a conversation's loaded pages combine: pages[0] is the newest page, each next page is
 * older, and each page lists its messages oldest to newest. Pure, so the merging can be
 * tested without React (messages-query.ts puts it to work).
 */
export type Message = MessagePayload;

/** One page of a conversation, oldest to newest, and whether older messages exist. */
export interface MessagePage {
  messages: Message[];
  hasMore: boolean;
}

export type MessagePages = InfiniteData<MessagePage, string | undefined>;

/** Oldest to newest across the loaded pages. */
export function oldestFirst(data: MessagePages): Message[] {
  return [...data.pages].reverse().flatMap((page) => page.messages);
}

/** The `before` of the page older than `page`: its oldest id, or none when nothing is older. */
export function olderPageParam(page: MessagePage): string | undefined {
  return page.hasMore ? page.messages[0]?.id : undefined;
}

/** `message` at the end of the newest page, unless it is loaded already. */
export function withAppended(data: MessagePages | undefined, message: Message) {
  if (!data) return data;
  const [newest, ...older] = data.pages;
  if (!newest) return data;
  if (data.pages.some((page) => page.messages.some((known) => known.id === message.id))) {
    return data;
  }
  return { ...data, pages: [{ ...newest, messages: [...newest.messages, message] }, ...older] };
}

/**
 * A message that arrived with its event, placed after the newest loaded one when that is the
 * message its event says comes before it (`afterId`; null for a conversation's first). Null
 * when it cannot be placed (an event was missed, or came out of order, or nothing is loaded):
 * the caller fetches the conversation instead.
 */
export function withArrived(
  data: MessagePages | undefined,
  message: Message,
  afterId: string | null,
): MessagePages | null {
  const newest = data?.pages[0];
  if (!data || !newest) return null;
  if (data.pages.some((page) => page.messages.some((known) => known.id === message.id))) {
    return data;
  }
  const last = newest.messages.at(-1);
  if ((last?.id ?? null) !== afterId || (!last && newest.hasMore)) return null;
  return withAppended(data, message) ?? null;
}

/** The server's newer copy of a loaded message (a decided file) in its place. */
export function withReplaced(data: MessagePages | undefined, message: Message) {
  return (
    data && {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        messages: page.messages.map((known) => (known.id === message.id ? message : known)),
      })),
    }
  );
}
