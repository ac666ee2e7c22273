import { type UIEvent, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { Message } from "./messages-query";

/** Within this many pixels of the end counts as "at the newest message". */
const NEAR_BOTTOM_PX = 96;
/** Older messages load when the view comes this close to the top. */
const LOAD_OLDER_PX = 240;

/** The conversation's older pages: whether there are more, and asking for the next one. */
export interface OlderPages {
  hasMore: boolean;
  loading: boolean;
  failed: boolean;
  load: () => void;
}

export interface ChatScrollOptions {
  /** Oldest to newest; undefined while the first page loads. */
  messages: Message[] | undefined;
  viewerRole: "owner" | "client";
  older: OlderPages;
}

export interface ChatScroll {
  /** The scrolling message log. */
  scrollRef: React.RefObject<HTMLDivElement | null>;
  onScroll: (event: UIEvent<HTMLDivElement>) => void;
  /** The view is at the newest message. */
  atBottom: boolean;
  /** A message from the other side arrived below the view. */
  unseenBelow: boolean;
  /** The next change of the list (your own message, an upload) scrolls to the newest message. */
  followNewest: () => void;
  /** Older pages are coming in to be shown: keep the view where it is meanwhile. */
  holdPosition: () => void;
  /** Smoothly back to the newest message (the jump button). */
  jumpToNewest: () => void;
  /** Scrolls a loaded message to the middle of the view; false when it is not loaded. */
  showMessage: (id: string, behavior?: ScrollBehavior) => boolean;
}

interface ScrollAnchor {
  id: string;
  /** The message's top, relative to the scroll area's top. */
  offset: number;
}

/**
 * A chat's scrolling, newest at the bottom: follows new messages while the view is at the
 * bottom (also when the view or its content changes size: a phone's keyboard, a file card
 * loading); keeps the message at the top of the view in place when older pages are added
 * above it; asks for the older page when the view nears the top (and when no scroll event
 * will: a short first page, or the top reached while another load ran); tells whether the
 * view is at the bottom and whether the other side wrote below it.
 */
export function useChatScroll({ messages, viewerRole, older }: ChatScrollOptions): ChatScroll {
  const scrollRef = useRef<HTMLDivElement>(null);
  /** Was the view at the newest message before the last change? Then it follows new ones. */
  const stickToBottom = useRef(true);
  const anchor = useRef<ScrollAnchor | null>(null);
  const knownNewestId = useRef<string | undefined>(undefined);
  const [atBottom, setAtBottom] = useState(true);
  const [unseenBelow, setUnseenBelow] = useState(false);

  const canLoadOlder = older.hasMore && !older.loading && !older.failed;
  const { load } = older;
  const loadOlder = useCallback(() => {
    if (canLoadOlder) load();
  }, [canLoadOlder, load]);

  /** Reads where the view is: at the bottom or not, and which message is at its top. */
  const measure = useCallback(() => {
    const area = scrollRef.current;
    if (!area) return;
    const near = area.scrollHeight - area.scrollTop - area.clientHeight < NEAR_BOTTOM_PX;
    stickToBottom.current = near;
    setAtBottom(near);
    if (near) setUnseenBelow(false);
    anchor.current = firstVisibleMessage(area);
  }, []);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    measure();
    if (event.currentTarget.scrollTop < LOAD_OLDER_PX) loadOlder();
  };

  // After every change of the list: follow new messages when at the bottom, else keep the
  // message at the top of the view where it was (older pages are added above it).
  useLayoutEffect(() => {
    const area = scrollRef.current;
    if (!area || !messages) return;
    const newest = messages.at(-1);
    const newestChanged = newest?.id !== knownNewestId.current;
    knownNewestId.current = newest?.id;
    if (stickToBottom.current) {
      area.scrollTop = area.scrollHeight;
    } else if (anchor.current) {
      const item = area.querySelector<HTMLElement>(
        `[data-message-id="${CSS.escape(anchor.current.id)}"]`,
      );
      if (item) area.scrollTop += offsetIn(area, item) - anchor.current.offset;
      if (newestChanged && newest && newest.senderRole !== viewerRole) setUnseenBelow(true);
    }
    measure();
  }, [messages, viewerRole, measure]);

  // No scroll event will ask for more when a short first page does not fill the view, or
  // when the view reached the top while another load ran: ask now.
  useEffect(() => {
    const area = scrollRef.current;
    if (
      area &&
      messages &&
      (area.scrollHeight <= area.clientHeight || area.scrollTop < LOAD_OLDER_PX)
    )
      loadOlder();
  }, [messages, loadOlder]);

  // The view changes size (a phone's keyboard, a window resize): stay at the newest message.
  useEffect(() => {
    const area = scrollRef.current;
    if (!area || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (stickToBottom.current) area.scrollTop = area.scrollHeight;
    });
    // The content grows too after a render (file cards load lazily, images arrive): watch it.
    const observeAll = () => {
      observer.observe(area);
      for (const child of area.children) observer.observe(child);
    };
    observeAll();
    const children = new MutationObserver(observeAll);
    children.observe(area, { childList: true });
    return () => {
      observer.disconnect();
      children.disconnect();
    };
  }, []);

  const followNewest = useCallback(() => {
    stickToBottom.current = true;
  }, []);

  const holdPosition = useCallback(() => {
    stickToBottom.current = false;
  }, []);

  const jumpToNewest = useCallback(() => {
    const area = scrollRef.current;
    if (!area) return;
    stickToBottom.current = true;
    area.scrollTo({ top: area.scrollHeight, behavior: "smooth" });
    setUnseenBelow(false);
  }, []);

  const showMessage = useCallback(
    (id: string, behavior: ScrollBehavior = "auto") => {
      const item = scrollRef.current?.querySelector(`[data-message-id="${CSS.escape(id)}"]`);
      if (!item) return false;
      if (behavior === "smooth") {
        // The scroll events that follow tell where the view ends up.
        item.scrollIntoView({ block: "center", behavior });
      } else {
        stickToBottom.current = false;
        item.scrollIntoView({ block: "center" });
        measure();
      }
      return true;
    },
    [measure],
  );

  return {
    scrollRef,
    onScroll,
    atBottom,
    unseenBelow,
    followNewest,
    holdPosition,
    jumpToNewest,
    showMessage,
  };
}

/** An element's top relative to the scroll area's visible top. */
function offsetIn(area: HTMLElement, item: HTMLElement): number {
  return item.getBoundingClientRect().top - area.getBoundingClientRect().top;
}

/**
 * The first message whose bottom is inside the view: a binary search over the list's rows (in
 * order, day headings among them), through the live `children` collection rather than a query
 * of every message, as this runs on every scroll event.
 */
function firstVisibleMessage(area: HTMLElement): ScrollAnchor | null {
  const rows = area.querySelector("[data-message-id]")?.parentElement?.children;
  if (!rows) return null;
  const areaTop = area.getBoundingClientRect().top;
  let low = 0;
  let high = rows.length - 1;
  let found: Element | null = null;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const row = rows[middle]!;
    if (row.getBoundingClientRect().bottom > areaTop) {
      found = row;
      high = middle - 1;
    } else {
      low = middle + 1;
    }
  }
  while (found && !(found instanceof HTMLElement && found.dataset.messageId)) {
    found = found.nextElementSibling;
  }
  if (!found?.dataset.messageId) return null;
  return { id: found.dataset.messageId, offset: offsetIn(area, found) };
}
