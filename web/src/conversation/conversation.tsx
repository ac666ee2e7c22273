import { lazy, Suspense, useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { serverMessage } from "../api/client";
import { useCurrentUser } from "../api/current-user";
import { Button } from "../ui/button";
import { ArrowDownIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { optionalPart } from "../ui/optional-part";
import { useToast } from "../ui/toast";
import { Composer } from "./composer";
import { EmptyConversation } from "./empty-conversation";
import { HistoryStart } from "./history-start";
import { MessageList, type PersonAvatar } from "./message-list";
import { useMessages, useSendMessage } from "./messages-query";
import type { OutboxEntry } from "./outbox";
import type { PendingFilesProps } from "./pending-files-bar";
import { pendingFiles } from "./pending-files";
import { UnsentMessages, useUnsentInList } from "./unsent-messages";
import { type OlderPages, useChatScroll } from "./use-chat-scroll";
import { useFileDrop } from "./use-file-drop";
import { useFocusMessage } from "./use-focus-message";
import { useMarkRead } from "./use-mark-read";
import type { StaffTools } from "./staff-tools";
import { useNoPresence } from "./no-presence";
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
  /** The staff's saved replies, presence and Send later; never in the portal. */
  staffTools?: StaffTools;
}

/** The staff's scheduled messages (issue 28) load with the dashboard's conversation only. */
const ScheduledMessages = optionalPart(() =>
  import("./scheduled-messages").then((module) => module.ScheduledMessages),
);

/**
 * Who else is here and typing: the store follows the socket from the start (use-presence.ts);
 * the line that says so loads just after the conversation shows (the portal's first-load
 * budget, docs/decisions.md).
 */
const PresenceBar = optionalPart(
  () => import("./presence-bar").then((module) => module.PresenceBar),
  // The live region is there from the start (it must exist before it speaks); empty, no room.
  () => <div aria-live="polite" />,
);

/**
 * Speaks messages that arrive: only later ones are news, so it can load just after the
 * conversation shows (the portal's first load). Its live region is there from the start.
 */
const NewMessageAnnouncer = optionalPart(
  () => import("./new-message-announcer").then((module) => module.NewMessageAnnouncer),
  () => <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true" />,
);

/**
 * "2 files wait for your approval": loaded just after the conversation shows (the portal's
 * first load); until then a bar of the same size holds its place, so nothing moves.
 */
const PendingFiles = optionalPart(
  () => import("./pending-files-bar").then((module) => module.PendingFilesBar),
  (_props: PendingFilesProps) => (
    <div className="conversation__pending" aria-hidden="true">
      &nbsp;
    </div>
  ),
);

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
  staffTools,
}: ConversationProps) {
  const { t } = useTranslation("conversation");
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
  const usePresence = staffTools?.usePresence ?? useNoPresence;
  const presence = usePresence(clientId);
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

  // A client-side person: the files that wait for them (with "everyone", until they decided).
  const viewer = useCurrentUser().data;
  const pending = pendingFiles(messages ?? [], viewerRole === "client" ? viewer?.id : undefined);
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

  // Scheduled send (issue 28): the staff's dashboard.
  const scheduleLater = staffTools?.useScheduleLater(clientId);

  const retrySend = (entry: OutboxEntry) => {
    scroll.followNewest();
    send.retry(entry, (error) =>
      toast({
        title: t("Failed to send message"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
    );
  };
  const unsent = useUnsentInList(send.unsent, messages, viewerRole, retrySend);

  return (
    <section
      className={`conversation${drop.dropping ? " conversation--dropping" : ""}`}
      aria-label={t("Conversation with {{name}}", { name: otherName })}
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
        aria-label={t("Messages with {{name}}", { name: otherName })}
        aria-busy={isPending || isFetchingNextPage || undefined}
        // Keyboard users scroll the history with the arrow keys once it has focus.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable
        tabIndex={0}
        onScroll={scroll.onScroll}
      >
        {isPending && (
          <div className="conversation__status">
            <Spinner label={t("Loading messages")} />
          </div>
        )}
        {isError && (
          <div className="conversation__status" role="alert">
            <p>{t("We couldn't load the messages.")}</p>
            <Button variant="secondary" size="sm" onClick={() => void refetch()}>
              {t("Try again")}
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
              clientName={viewerRole === "owner" ? otherName : t("You")}
              viewerId={viewer?.id}
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
          {scroll.unseenBelow ? t("New messages") : t("Latest")}
        </button>
      )}
      {drop.dropping && (
        <div className="conversation__drop" aria-hidden="true">
          {t("Drop the file to upload it")}
        </div>
      )}
      {viewerRole === "owner" && (
        <PresenceBar people={presence.people} viewerTyping={presence.typing} />
      )}
      {viewerRole === "owner" && (
        <ScheduledMessages clientId={clientId} ready={messages !== undefined} />
      )}
      <Composer
        onAttach={() => setUpload(true)}
        onSchedule={scheduleLater}
        onTyping={presence.onTyping}
        onSend={sendMessage}
        sending={send.sending}
        disabled={isError}
        placeholder={t("Message {{name}}", { name: otherName })}
        notes={viewerRole === "owner"}
        picker={staffTools && { usePicker: staffTools.usePicker, clientId }}
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
