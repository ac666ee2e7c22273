/**
 * How the sockets of /ws close, and the events' types (their schema, which the server checks
 * every event against and the browser parses every frame with, is shared/realtime-events.ts:
 * this module has no zod, so the client portal's first load does not either).
 */
export type {
  ConversationEvent,
  MessageEvent,
  MessageEventType,
  RealtimeEvent,
  RealtimeEventType,
} from "./realtime-events";

/**
 * Close codes the server sends. accessRevoked means "do not reconnect": the page asks the API
 * who is signed in (GET /api/user) and acts on the answer. sessionEnded means the session the
 * socket opened with is gone, but this browser may hold a newer one (a password change ends
 * every session and signs the browser that made it in anew): the page reconnects at once with
 * the cookie it has now, and if that attempt is refused it asks who is signed in, so a page
 * that was really signed out shows what a signed-out page shows. resync (1012, "service
 * restart") means reconnect at once and refetch: the server is fine, only this socket must go.
 * Any other close (1001 going away, 1006 dropped, ...) means reconnect with backoff and refetch.
 */
export const CLOSE_CODES = {
  /** The user's access was removed (e.g. the client was deleted). */
  accessRevoked: 4001,
  /** The socket's session ended (signed out, expired, password changed). */
  sessionEnded: 4401,
  /**
   * Reconnect at once and catch up: this instance is shutting down (SIGTERM drain; the
   * balancer sends the new socket to another one), or it may have missed events (its
   * LISTEN connection came back).
   */
  resync: 1012,
} as const;

/** A close after which the browser must not reconnect on its own. */
export function endsRealtime(code: number): boolean {
  return code === CLOSE_CODES.accessRevoked;
}

/** A close after which the browser reconnects at once (within a small random spread). */
export function reconnectsAtOnce(code: number): boolean {
  return code === CLOSE_CODES.resync || code === CLOSE_CODES.sessionEnded;
}
