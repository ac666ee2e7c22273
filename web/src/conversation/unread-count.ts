import { useMessages } from "./messages-query";
import type { ViewerRole } from "./conversation";

/**
 * How many of the other side's messages the viewer has not read, from the conversation's
 * loaded messages (the newest page is always loaded, and unread messages are the newest).
 * Live: the websocket's new_message and messages_read events refresh that query.
 */
export function useUnreadCount(clientId: string, viewerRole: ViewerRole): number | undefined {
  const { data: messages } = useMessages(clientId);
  return messages?.filter((message) => message.senderRole !== viewerRole && !message.read).length;
}
