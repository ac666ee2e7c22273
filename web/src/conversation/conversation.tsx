import {
  type DragEvent,
  lazy,
  Suspense,
  type UIEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from "react";
import { serverMessage } from "../api/client";
import { Button } from "../ui/button";
import { ArrowDownIcon, MessageIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { useToast } from "../ui/toast";
import { Composer } from "./composer";
import type { FileMessage } from "./files-api";
import { MessageList, type PersonAvatar } from "./message-list";
import { markRead, useMessages, useSendMessage } from "./messages-query";
import { NewMessageAnnouncer } from "./new-message-announcer";
import type { OutboxEntry } from "./outbox";
import { UnsentMessages, useUnsentInList } from "./unsent-messages";
import "./conversation.css";

export type ViewerRole = "owner" | "client";

export interface ConversationProps {
  clientId: string;
  viewerRole: ViewerRole;
  /** The other side's name: the log's label and the empty state. */
  otherName: string;
  /** The other side's picture (or initials) beside their messages. */
  otherAvatar?: PersonAvatar;
  /** The viewer's read mark moved (e.g. refresh the owner's unread counts). */
  onRead?: () => void;
  /**
   * A message to show (a search result): older pages load until it is there, then it is
   * scrolled to and highlighted; onFocused follows (also when it is not in the conversation).
   */
  focusMessageId?: string | null;
  onFocused?: () => void;
}

/** The Upload File dialog loads when it is first asked for. */
const UploadDialog = lazy(() => import("./upload-dialog"));

/** Within this many pixels of the end counts as "at the newest message". */
const NEAR_BOTTOM_PX = 96;
/** Older messages load when the view comes this close to the top. */
const LOAD_OLDER_PX = 240;

/**
 * One conversation, for the owner dashboard and the client portal alike: the messages oldest
 * to newest (newest page first, older pages when scrolling up), the composer, read receipts
 * and marking as read.
 */
export function Conversation(props: ConversationProps) {
  // A new conversation starts with fresh scroll and read state.
  return <ConversationView key={props.clientId} {...props} />;
}

function subscribeVisibility(onChange: () => void) {
  document.addEventListener("visibilitychange", onChange);
  return () => document.removeEventListener("visibilitychange", onChange);
}

/** Whether the page is on screen (not a background tab or a minimised window). */
function usePageVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState === "visible",
    () => true,
  );
}

interface ScrollAnchor {
  id: string;
  /** The message's top, relative to the scroll area's top. */
  offset: number;
}

function ConversationView({
  clientId,
  viewerRole,
  otherName,
  otherAvatar,
  onRead,
  focusMessageId,
  onFocused,
}: ConversationProps) {
  const {
    data: messages,
    isPending,
    // Only a first load that failed: a failed refetch (offline) keeps the loaded messages.
    isLoadingError: isError,
    refetch,
    hasNextPage,
    fetchNextPage,
    isFetchingNextPage,
    isFetchNextPageError,
  } = useMessages(clientId);
  const send = useSendMessage(clientId);
  const pageVisible = usePageVisible();
  const toast = useToast();

  const scrollRef = useRef<HTMLDivElement>(null);
  /** Was the view at the newest message before the last change? Then it follows new ones. */
  const stickToBottom = useRef(true);
  const anchor = useRef<ScrollAnchor | null>(null);
  const knownNewestId = useRef<string | undefined>(undefined);
  const markedReadId = useRef<string | null>(null);
  const [atBottom, setAtBottom] = useState(true);
  const [unseenBelow, setUnseenBelow] = useState(false);
  /** The Upload File dialog: closed (null), open empty (true) or with a dropped file. */
  const [upload, setUpload] = useState<File | true | null>(null);
  const [dropping, setDropping] = useState(false);
  /** The message a search opened, highlighted. */
  const [foundId, setFoundId] = useState<string | null>(null);

  const canLoadOlder = hasNextPage && !isFetchingNextPage && !isFetchNextPageError;
  const loadOlder = useCallback(() => {
    if (canLoadOlder) void fetchNextPage();
  }, [canLoadOlder, fetchNextPage]);

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

  // A message to show: load older pages until it is there, then scroll it to the middle.
  useEffect(() => {
    const area = scrollRef.current;
    if (!focusMessageId || !area || !messages) return;
    const item = area.querySelector(`[data-message-id="${CSS.escape(focusMessageId)}"]`);
    if (item) {
      stickToBottom.current = false;
      item.scrollIntoView({ block: "center" });
      setFoundId(focusMessageId);
      measure();
      onFocused?.();
    } else if (hasNextPage && !isFetchNextPageError) {
      // Older pages go above the messages in view, which stay where they are meanwhile.
      stickToBottom.current = false;
      if (!isFetchingNextPage) void fetchNextPage();
    } else if (!isFetchingNextPage) {
      onFocused?.();
    }
  }, [
    focusMessageId,
    messages,
    hasNextPage,
    isFetchingNextPage,
    isFetchNextPageError,
    fetchNextPage,
    measure,
    onFocused,
  ]);

  // Read: the newest message is from the other side, on screen, in a visible page.
  const newest = messages?.at(-1);
  useEffect(() => {
    if (!newest || newest.senderRole === viewerRole || newest.read) return;
    if (!pageVisible || !atBottom || markedReadId.current === newest.id) return;
    markedReadId.current = newest.id;
    markRead(clientId, newest.id).then(
      () => onRead?.(),
      () => {
        markedReadId.current = null;
      },
    );
  }, [newest, viewerRole, pageVisible, atBottom, clientId, onRead]);

  const jumpToNewest = () => {
    const area = scrollRef.current;
    if (!area) return;
    stickToBottom.current = true;
    area.scrollTo({ top: area.scrollHeight, behavior: "smooth" });
    setUnseenBelow(false);
  };

  const onDragOver = (event: DragEvent) => {
    if (isError || upload || !event.dataTransfer.types.includes("Files")) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setDropping(true);
  };
  const onDragLeave = (event: DragEvent) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDropping(false);
  };
  const onDrop = (event: DragEvent) => {
    if (!dropping) return;
    event.preventDefault();
    setDropping(false);
    const file = event.dataTransfer.files[0];
    if (file) {
      stickToBottom.current = true;
      setUpload(file);
    }
  };

  const pending = pendingFiles(messages ?? []);
  const showFirstPending = () => {
    const first = pending[0];
    const item =
      first && scrollRef.current?.querySelector(`[data-message-id="${CSS.escape(first.id)}"]`);
    item?.scrollIntoView({ block: "center", behavior: "smooth" });
  };

  const sendMessage = (content: string, callbacks: { onError: (error: unknown) => void }) => {
    // Your own message always shows, wherever you had scrolled to.
    stickToBottom.current = true;
    send.send(content, callbacks, messages?.at(-1)?.id);
  };

  const retrySend = (entry: OutboxEntry) => {
    stickToBottom.current = true;
    send.retry(entry, (error) =>
      toast({
        title: "Failed to send message",
        description: serverMessage(error, "Please try again"),
        variant: "destructive",
      }),
    );
  };
  const unsent = useUnsentInList(send.unsent, messages, viewerRole, retrySend);

  return (
    <section
      className={`conversation${dropping ? " conversation--dropping" : ""}`}
      aria-label={`Conversation with ${otherName}`}
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      {pending.length > 0 && (
        <button type="button" className="conversation__pending" onClick={showFirstPending}>
          {pending.length === 1 ? "1 file waits" : `${pending.length} files wait`}{" "}
          {viewerRole === "client" ? "for your approval" : `for ${otherName}'s decision`}
        </button>
      )}
      <div
        ref={scrollRef}
        className="conversation__scroll"
        role="log"
        // Silent: NewMessageAnnouncer speaks arriving messages (the list also grows with
        // older pages and lazily loaded file cards, which should not be read out).
        aria-live="off"
        aria-label={`Messages with ${otherName}`}
        aria-busy={isPending || isFetchingNextPage || undefined}
        // Keyboard users scroll the history with the arrow keys once it has focus.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable
        tabIndex={0}
        onScroll={onScroll}
      >
        {isPending && (
          <div className="conversation__status">
            <Spinner label="Loading messages" />
          </div>
        )}
        {isError && (
          <div className="conversation__status" role="alert">
            <p>We couldn't load the messages.</p>
            <Button variant="secondary" size="sm" onClick={() => void refetch()}>
              Try again
            </Button>
          </div>
        )}
        {messages && messages.length === 0 && unsent.length === 0 && (
          <EmptyConversation otherName={otherName} />
        )}
        {messages && (messages.length > 0 || unsent.length > 0) && (
          <>
            <div className="conversation__history">
              {hasNextPage ? (
                <Button
                  variant="ghost"
                  size="sm"
                  loading={isFetchingNextPage}
                  onClick={() => void fetchNextPage()}
                >
                  {isFetchingNextPage
                    ? "Loading older messages..."
                    : isFetchNextPageError
                      ? "Couldn't load older messages. Try again"
                      : "Load older messages"}
                </Button>
              ) : (
                <p className="conversation__start">
                  This is the start of your conversation with {otherName}.
                </p>
              )}
            </div>
            <MessageList
              messages={messages}
              viewerRole={viewerRole}
              clientId={clientId}
              clientName={viewerRole === "owner" ? otherName : "You"}
              otherAvatar={otherAvatar}
              foundId={foundId}
            />
            <UnsentMessages entries={unsent} onRetry={retrySend} />
          </>
        )}
      </div>
      <NewMessageAnnouncer messages={messages} viewerRole={viewerRole} />
      {!atBottom && messages && messages.length > 0 && (
        <button type="button" className="conversation__jump" onClick={jumpToNewest}>
          <ArrowDownIcon />
          {unseenBelow ? "New messages" : "Latest"}
        </button>
      )}
      {dropping && (
        <div className="conversation__drop" aria-hidden="true">
          Drop the file to upload it
        </div>
      )}
      <Composer
        onAttach={() => setUpload(true)}
        onSend={sendMessage}
        sending={send.sending}
        disabled={isError}
        placeholder={`Message ${otherName}`}
      />
      {upload && (
        <Suspense fallback={null}>
          <UploadDialog
            clientId={clientId}
            viewerRole={viewerRole}
            initialFile={upload === true ? null : upload}
            onClose={() => setUpload(null)}
            onUploaded={() => {
              stickToBottom.current = true;
            }}
          />
        </Suspense>
      )}
    </section>
  );
}

/** Files that wait for the client's decision (newest versions the owner sent). */
const pendingFiles = (messages: FileMessage[]) =>
  messages.filter(
    (message) =>
      message.requiresFeedback &&
      message.feedbackStatus === "pending" &&
      message.isLatestVersion !== false,
  );

function EmptyConversation({ otherName }: { otherName: string }) {
  return (
    <div className="conversation__empty">
      <span className="conversation__empty-icon">
        <MessageIcon />
      </span>
      <p className="conversation__empty-title">No messages yet</p>
      <p className="conversation__empty-text">
        Say hello to {otherName}. Messages you send appear here.
      </p>
    </div>
  );
}

/** An element's top relative to the scroll area's visible top. */
function offsetIn(area: HTMLElement, item: HTMLElement): number {
  return item.getBoundingClientRect().top - area.getBoundingClientRect().top;
}

/** The first message whose bottom is inside the view (binary search: the list is in order). */
function firstVisibleMessage(area: HTMLElement): ScrollAnchor | null {
  const items = area.querySelectorAll<HTMLElement>("[data-message-id]");
  const areaTop = area.getBoundingClientRect().top;
  let low = 0;
  let high = items.length - 1;
  let found: HTMLElement | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const item = items[middle]!;
    if (item.getBoundingClientRect().bottom > areaTop) {
      found = item;
      high = middle - 1;
    } else {
      low = middle + 1;
    }
  }
  if (!found?.dataset.messageId) return null;
  return { id: found.dataset.messageId, offset: offsetIn(area, found) };
}
