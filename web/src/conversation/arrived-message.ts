import type { QueryClient } from "@tanstack/react-query";
import type { RealtimeEvent } from "../../../shared/realtime";
import { queryKeys } from "../api/query-keys";
import { type MessagePages, withArrived } from "./message-pages";

/**
 * Puts a new message that came with its event at the end of its loaded conversation, when it
 * follows the newest loaded message and no fetch of that conversation is under way (its answer
 * could be older than the event). False: the conversation must be fetched.
 */
export function placeArrivedMessage(queryClient: QueryClient, event: RealtimeEvent): boolean {
  if (event.type !== "new_message" || !event.message || event.afterId === undefined) return false;
  const queryKey = queryKeys.messages(event.clientId);
  if (queryClient.isFetching({ queryKey, exact: true }) > 0) return false;
  const next = withArrived(
    queryClient.getQueryData<MessagePages>(queryKey),
    event.message,
    event.afterId,
  );
  if (!next) return false;
  queryClient.setQueryData(queryKey, next);
  return true;
}
