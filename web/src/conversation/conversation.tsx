import { lazy, Suspense, useCallback, useState } from "react";
import { serverMessage } from "../api/client";
import { Button } from "../ui/button";
import { ArrowDownIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { useToast } from "../ui/toast";
import { Composer } from "./composer";
import { EmptyConversation } from "./empty-conversation";
import { HistoryStart } from "./history-start";
import { MessageList, type PersonAvatar } from "./message-list";
import { useMessages, useSendMessage } from "./messages-query";
import { NewMessageAnnouncer } from "./new-message-announcer";
import type { OutboxEntry } from "./outbox";
import { PendingFiles, pendingFiles } from "./pending-files";
import { PresenceBar } from "./presence-bar";
import { UnsentMessages, useUnsentInList } from "./unsent-messages";
import { type OlderPages, useChatScroll } from "./use-chat-scroll";
import { useFileDrop } from "./use-file-drop";
import { useFocusMessage } from "./use-focus-message";
import { useMarkRead } from "./use-mark-read";
import { usePresence } from "./use-presence";
import "./conversation.css";

export type ViewerRole = "owner" | "client";

export interface ConversationProps {
  clientId: string;
  viewerRole: ViewerRole;
  /** The other side's name: the log's label and the empty state. */
  otherName: string;
  /**
   * The viewer's own full name: a message of their side that someone else wrote (a colleague)
   * shows that person's name and picture.
   */
  viewerName?: string;
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

/**
 * One conversation, for the owner dashboard and the client portal alike: the messages oldest
 * to newest (newest page first, older pages when scrolling up), the composer, read receipts
 * and marking as read.
 */
export function Conversation(props: ConversationProps) {
  // A new conversation starts with fresh scroll and read state.
  return <ConversationView key={props.clientId} {...props} />;
}

function ConversationView({
  clientId,
  viewerRole,
  otherName,
  viewerName,
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
  const toast = useToast();
  // Colleagues viewing and typing here (issue 26); the staff's side only.
  const presence = usePresence(clientId, viewerRole === "owner");
  /** The Upload File dialog: closed (null), open empty (true) or with a dropped file. */
  const [upload, setUpload] = useState<File | true | null>(null);

  const load = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const older: OlderPages = {
    hasMore: hasNextPage,
    loading: isFetchingNextPage,
    failed: isFetchNextPageError,
    load,
  };
  const scroll = useChatScroll({ messages, viewerRole, older });
  const foundId = useFocusMessage({ focusMessageId, messages, older, scroll, onFocused });
  useMarkRead(clientId, messages?.at(-1), viewerRole, scroll.atBottom, onRead);
  const drop = useFileDrop(!isError && !upload, (file) => {
    scroll.followNewest();
    setUpload(file);
  });

  const pending = pendingFiles(messages ?? []);
  const showFirstPending = () => {
    if (pending[0]) scroll.showMessage(pending[0].id, "smooth");
  };

  const sendMessage = (
    content: string,
    callbacks: { onError: (error: unknown) => void },
    visibility?: "internal",
  ) => {
    // Your own message always shows, wherever you had scrolled to.
    scroll.followNewest();
    presence.onSent();
    send.send(content, callbacks, messages?.at(-1)?.id, visibility);
  };

  const retrySend = (entry: OutboxEntry) => {
    scroll.followNewest();
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
      className={`conversation${drop.dropping ? " conversation--dropping" : ""}`}
      aria-label={`Conversation with ${otherName}`}
      {...drop.handlers}
    >
      {pending.length > 0 && (
        <PendingFiles
          count={pending.length}
          viewerRole={viewerRole}
          otherName={otherName}
          onShow={showFirstPending}
        />
      )}
      <div
        ref={scroll.scrollRef}
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
        onScroll={scroll.onScroll}
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
            <HistoryStart older={older} otherName={otherName} />
            <MessageList
              messages={messages}
              viewerRole={viewerRole}
              clientId={clientId}
              clientName={viewerRole === "owner" ? otherName : "You"}
              viewerName={viewerName}
              otherAvatar={otherAvatar}
              foundId={foundId}
            />
            <UnsentMessages entries={unsent} onRetry={retrySend} />
          </>
        )}
      </div>
      <NewMessageAnnouncer messages={messages} viewerRole={viewerRole} viewerName={viewerName} />
      {!scroll.atBottom && messages && messages.length > 0 && (
        <button type="button" className="conversation__jump" onClick={scroll.jumpToNewest}>
          <ArrowDownIcon />
          {scroll.unseenBelow ? "New messages" : "Latest"}
        </button>
      )}
      {drop.dropping && (
        <div className="conversation__drop" aria-hidden="true">
          Drop the file to upload it
        </div>
      )}
      {viewerRole === "owner" && (
        <PresenceBar people={presence.people} viewerTyping={presence.typing} />
      )}
      <Composer
        onAttach={() => setUpload(true)}
        onTyping={presence.onTyping}
        onSend={sendMessage}
        sending={send.sending}
        disabled={isError}
        placeholder={`Message ${otherName}`}
        notes={viewerRole === "owner"}
      />
      {upload && (
        <Suspense fallback={null}>
          <UploadDialog
            clientId={clientId}
            viewerRole={viewerRole}
            initialFile={upload === true ? null : upload}
            onClose={() => setUpload(null)}
            onUploaded={scroll.followNewest}
          />
        </Suspense>
      )}
    </section>
  );
}
