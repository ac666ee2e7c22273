import type { RealtimeEvent } from "../../shared/realtime";
import type { MessagePayload } from "../../shared/schemas/message-payload";
import type { Role } from "../../shared/schemas/user";

/**
 * A new message as each side of its conversation may see it (server/presenters/message.ts);
 * a side without a view gets the event's ids only, and fetches.
 */
export type MessageViews = Partial<Record<Role, MessagePayload>>;

/**
 * What the rest of the server needs from realtime delivery. Commands publish after their
 * transaction commits; every server instance delivers to its own sockets.
 */
export interface RealtimePublisher {
  /**
   * Delivers `event` to the sockets of the conversation's owner and client, on every instance;
   * a new_message with each side's view of the message, when given and small enough.
   * `sides`: only those sides hear of it at all (an internal note: the owner's); both if absent.
   */
  publish(event: RealtimeEvent, views?: MessageViews, sides?: readonly Role[]): Promise<void>;
  /**
   * Who has conversation `clientId` changed (issue 26): every instance looks its members up
   * afresh and tells these users' sockets (client_access_changed), whether they gained or lost it.
   */
  accessChanged(clientId: string, userIds: string[]): Promise<void>;
  /**
   * A workspace's team changed (issue 26): these users' sockets (its staff) hear team_changed,
   * on every instance.
   */
  teamChanged(userIds: string[]): Promise<void>;
  /** Closes every socket of these users, on every instance (e.g. a deleted client). */
  disconnectUsers(userIds: string[]): Promise<void>;
  /**
   * Closes the sockets of one ended session, on every instance: at once, or `afterMs` later
   * (at most a minute).
   */
  endSession(sessionHash: string, afterMs?: number): Promise<void>;
}
