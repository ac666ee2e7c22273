import type { QueryClient } from "@tanstack/react-query";
import type { ClientPayload } from "../../../shared/schemas/clients";
import type { NewestMessagePage } from "../../../shared/schemas/messages";
import { queryKeys } from "../api/query-keys";
import type { MessagePages } from "./message-pages";

/**
 * A conversation as a first screen's data carries it (GET /api/portal/{id}, GET
 * /api/dashboard?client={id}), put under the keys the pages read for `clientId` (as the
 * address names it): the client, and its newest page of messages as the first page of the
 * messages infinite query.
 */
export function seedConversation(
  queryClient: QueryClient,
  clientId: string,
  conversation: { client: ClientPayload; messages: NewestMessagePage },
): void {
  queryClient.setQueryData(queryKeys.client(clientId), conversation.client);
  queryClient.setQueryData<MessagePages>(queryKeys.messages(clientId), {
    pages: [conversation.messages],
    pageParams: [undefined],
  });
}
