import { type QueryClient, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { apiGet, apiPost, apiRequestWithHeaders } from "../api/client";
import { isRetryable, newIdempotencyKey, postIdempotent } from "../api/idempotent-post";
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

/**
 * POST /api/clients/{id}/messages with an Idempotency-Key, retried on network failure with
 * the same key (postIdempotent). Meanwhile the message waits in the outbox ("sending"); the
 * answer then shows at once and the list refetches. Once the retries give up it stays there
 * as "failed" (Not sent) until `retry`, which sends it again with the same key. An answer
 * that retrying cannot change (e.g. 400, 403) removes it and goes to `onError`.
 */
export function useSendMessage(clientId: string) {
  const queryClient = useQueryClient();
  const unsent = useOutbox(clientId);

  const deliver = useCallback(
    async (entry: OutboxEntry, onError: (error: unknown) => void) => {
      outbox.setState(clientId, entry.key, "sending");
      try {
        const message = await postIdempotent<Message>(
          `/api/clients/${encodeURIComponent(clientId)}/messages`,
          { content: entry.content },
          entry.key,
        );
        appendMessage(queryClient, clientId, message);
        outbox.confirm(clientId, entry.key, message.id);
        void queryClient.invalidateQueries({ queryKey: queryKeys.messages(clientId) });
      } catch (error) {
        if (isRetryable(error)) {
          outbox.setState(clientId, entry.key, "failed");
        } else {
          outbox.remove(clientId, entry.key);
          onError(error);
        }
      }
    },
    [clientId, queryClient],
  );

  const send = useCallback(
    (
      content: string,
      callbacks: { onError: (error: unknown) => void },
      afterId: string | undefined,
    ) => {
      const entry: OutboxEntry = { key: newIdempotencyKey(), content, state: "sending", afterId };
      outbox.add(clientId, entry);
      void deliver(entry, callbacks.onError);
    },
    [clientId, deliver],
  );

  const retry = useCallback(
    (entry: OutboxEntry, onError: (error: unknown) => void) => void deliver(entry, onError),
    [deliver],
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
