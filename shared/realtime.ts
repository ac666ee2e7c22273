/**
 * Events sent over /ws. Small on purpose: clients refetch through the API, so permission
 * checks stay in one place. messages_read tells a sender that the other side read up to a
 * message (read receipts); client_joined tells the owner that an invite was used, so the
 * list stops saying "Pending Invite" without a reload.
 */
export type MessageEventType = "new_message" | "feedback_updated" | "messages_read";
export type RealtimeEventType = MessageEventType | "client_joined";

export interface MessageEvent {
  type: MessageEventType;
  clientId: string;
  messageId: string;
}

export type RealtimeEvent = MessageEvent | { type: "client_joined"; clientId: string };
