import { type QueryClient, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { apiGet, apiPost, apiRequestWithHeaders, serverMessage } from "../api/client";
import { installedConnectivity } from "../api/installed-connectivity";
import {
  isNoAnswer,
  isStillProcessing,
  newIdempotencyKey,
  postIdempotent,
  RETRY_DELAYS_MS,
} from "../api/idempotent-post";
import { queryKeys } from "../api/query-keys";
import {
  type Message,
  type MessagePage,
  type MessagePages,
  olderPageParam,
  oldestFirst,
  withAppended,
  withReplaced,
} from "./message-pages";
import { i18n } from "../i18n/i18n";
import { createMessageQueue, type MessageQueue } from "./message-queue";
import { type OutboxEntry, outbox, useOutbox } from "./outbox";

export type { Message, MessagePage };

/** `before` undefined: the newest page; else the page of messages just older than that id. */
export async function fetchMessagePage(clientId: string, before?: string): Promise<MessagePage> {
  const query = before ? `?before=${encodeURIComponent(before)}` : "";
  const { data, headers } = await apiRequestWithHeaders<Message[]>(
    "GET",
    `/api/clients/${encodeURIComponent(clientId)}/messages${query}`,
  );
  return { messages: data ?? [], hasMore: headers.get("X-Has-More") === "true" };
}

/**
 * The conversation as an infinite query: pages[0] is the newest page, each next page is older
 * (`before` = the oldest id loaded). A refetch (websocket event, reconnect) reloads the newest
 * page and walks back from it, so the loaded range stays contiguous.
 */
export function useMessages(clientId: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.messages(clientId),
    queryFn: ({ pageParam }) => fetchMessagePage(clientId, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: olderPageParam,
    // A module-level function, so the selected list is memoized.
    select: oldestFirst,
  });
}

/** Puts a message the server just accepted at the end of the newest page (once). */
function appendMessage(queryClient: QueryClient, clientId: string, message: Message) {
  queryClient.setQueryData<MessagePages>(queryKeys.messages(clientId), (data) =>
    withAppended(data, message),
  );
}

/** Puts the server's newer copy of a loaded message (a decided file) in place. */
export function replaceMessage(queryClient: QueryClient, clientId: string, message: Message) {
  queryClient.setQueryData<MessagePages>(queryKeys.messages(clientId), (data) =>
    withReplaced(data, message),
  );
}

const queues = new WeakMap<QueryClient, MessageQueue>();

/** The page's message queue (one per query client, whose lists it updates). */
function messageQueueOf(queryClient: QueryClient): MessageQueue {
  let queue = queues.get(queryClient);
  if (!queue) {
    queue = createMessageQueue({
      connectivity: installedConnectivity(),
      newKey: newIdempotencyKey,
      // A 409 "still processing" is waited out; anything else is the queue's to decide.
      post: (clientId, entry) =>
        postIdempotent<Message>(
          `/api/clients/${encodeURIComponent(clientId)}/messages`,
          entry.visibility
            ? { content: entry.content, visibility: entry.visibility }
            : { content: entry.content },
          entry.key,
          RETRY_DELAYS_MS,
          isStillProcessing,
        ),
      isUnreachable: isNoAnswer,
      reasonOf: (error) =>
        serverMessage(error, i18n.t("The server refused it", { ns: "conversation" })),
      onSent: (clientId, entry, message) => {
        appendMessage(queryClient, clientId, message);
        outbox.confirm(clientId, entry.key, message.id);
        void queryClient.invalidateQueries({ queryKey: queryKeys.messages(clientId) });
      },
    });
    queues.set(queryClient, queue);
  }
  return queue;
}

/**
 * Sends the outbox's queued messages now if the server can be reached (restored ones), each
 * with its key; offline they stay Waiting for connection. Owner app only (tree-shaken away in
 * the portal, whose bundle has no byte to spare).
 */
export function resumeMessageQueue(queryClient: QueryClient): void {
  const queue = messageQueueOf(queryClient);
  for (const clientId of outbox.clientIds()) {
    for (const entry of outbox.of(clientId)) {
      if (entry.state === "queued") queue.retry(clientId, entry.key);
    }
  }
}

/**
 * POST /api/clients/{id}/messages with an Idempotency-Key, through the message queue: the
 * message waits in the outbox ("sending", or "queued" while the server cannot be reached) and
 * goes out in order with its key; the answer then shows at once and the list refetches. A
 * refusal of a message just typed (e.g. 400, 403) removes it and goes to `onError`; a message
 * that waited, or kept getting no answer, stays as "failed" (Not sent) until `retry`.
 */
export function useSendMessage(clientId: string) {
  const queryClient = useQueryClient();
  const unsent = useOutbox(clientId);
  const queue = messageQueueOf(queryClient);

  const send = useCallback(
    (
      content: string,
      callbacks: { onError: (error: unknown) => void },
      afterId: string | undefined,
      visibility?: "internal",
    ) => queue.send(clientId, content, afterId, callbacks.onError, visibility),
    [clientId, queue],
  );

  const retry = useCallback(
    (entry: OutboxEntry, onError: (error: unknown) => void) =>
      queue.retry(clientId, entry.key, onError),
    [clientId, queue],
  );

  return { send, retry, unsent, sending: unsent.some((entry) => entry.state === "sending") };
}

/** POST /api/clients/{id}/read: the viewer has seen everything up to `messageId`. */
export function markRead(clientId: string, messageId: string): Promise<unknown> {
  return apiPost(`/api/clients/${encodeURIComponent(clientId)}/read`, { messageId });
}

/** Attachments: the file messages of a conversation (GET /api/clients/{id}/attachments). */
export interface Attachment {
  id: string;
  fileName: string;
  fileUrl: string;
  /** An image's server-made preview; null for other files. */
  previewUrl?: string | null;
  senderRole: "owner" | "client";
  createdAt: string;
  requiresFeedback: boolean;
  feedbackStatus: Message["feedbackStatus"];
  feedbackComment?: string | null;
  fileSize?: number | null;
  versionNumber?: number | null;
}

export function fetchAttachments(clientId: string): Promise<Attachment[]> {
  return apiGet<Attachment[]>(`/api/clients/${encodeURIComponent(clientId)}/attachments`);
}
