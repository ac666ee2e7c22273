import type { RealtimeEvent } from "../../shared/realtime";

/**
 * What the rest of the server needs from realtime delivery. Commands publish after their
 * transaction commits; every server instance delivers to its own sockets.
 */
export interface RealtimePublisher {
  /** Delivers `event` to the sockets of the conversation's owner and client, on every instance. */
  publish(event: RealtimeEvent): Promise<void>;
  /** Closes every socket of these users, on every instance (e.g. a deleted client). */
  disconnectUsers(userIds: string[]): Promise<void>;
  /**
   * Closes the sockets of one ended session, on every instance: at once, or `afterMs` later
   * (at most a minute).
   */
  endSession(sessionHash: string, afterMs?: number): Promise<void>;
}
