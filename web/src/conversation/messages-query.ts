import {
  type InfiniteData,
  type QueryClient,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from "@tanstack/react-query";
import type { MessagePayload } from "../../../shared/schemas/messages";
import { apiGet, apiPost, apiRequestWithHeaders } from "../api/client";
import { queryKeys } from "../api/query-keys";

export type Message = MessagePayload;

/** One page of a conversation, oldest to newest, and whether older messages exist. */
export interface MessagePage {
  messages: Message[];
  hasMore: boolean;
}

/** `before` undefined: the newest page; else the page of messages just older than that id. */
export async function fetchMessagePage(clientId: string, before?: string): Promise<MessagePage> {
  const query = before ? `?before=${encodeURIComponent(before)}` : "";
  const { data, headers } = await apiRequestWithHeaders<Message[]>(
    "GET",
    `/api/clients/${encodeURIComponent(clientId)}/messages${query}`,
  );
  return { messages: data ?? [], hasMore: headers.get("X-Has-More") === "true" };
}

/** Oldest to newest across the loaded pages; a stable function, so the result is memoized. */
function oldestFirst(data: InfiniteData<MessagePage, string | undefined>): Message[] {
  return [...data.pages].reverse().flatMap((page) => page.messages);
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
    getNextPageParam: (page) => (page.hasMore ? page.messages[0]?.id : undefined),
    select: oldestFirst,
  });
}

/** Puts a message the server just accepted at the end of the newest page (once). */
function appendMessage(queryClient: QueryClient, clientId: string, message: Message) {
  queryClient.setQueryData<InfiniteData<MessagePage, string | undefined>>(
    queryKeys.messages(clientId),
    (data) => {
      if (!data) return data;
      const [newest, ...older] = data.pages;
      if (!newest) return data;
      if (data.pages.some((page) => page.messages.some((known) => known.id === message.id))) {
        return data;
      }
      return {
        ...data,
        pages: [{ ...newest, messages: [...newest.messages, message] }, ...older],
      };
    },
  );
}

/** Puts the server's newer copy of a loaded message (a decided file) in place. */
export function replaceMessage(queryClient: QueryClient, clientId: string, message: Message) {
  queryClient.setQueryData<InfiniteData<MessagePage, string | undefined>>(
    queryKeys.messages(clientId),
    (data) =>
      data && {
        ...data,
        pages: data.pages.map((page) => ({
          ...page,
          messages: page.messages.map((known) => (known.id === message.id ? message : known)),
        })),
      },
  );
}

/** POST /api/clients/{id}/messages; the answer shows at once, the list then refetches. */
export function useSendMessage(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) =>
      apiPost<Message>(`/api/clients/${encodeURIComponent(clientId)}/messages`, { content }),
    onSuccess: (message) => {
      appendMessage(queryClient, clientId, message);
      void queryClient.invalidateQueries({ queryKey: queryKeys.messages(clientId) });
    },
  });
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
