/**
 * Events sent over /ws, and how the sockets close: one definition for the server, which
 * checks every event against this schema before it goes out, and for the browser, which
 * parses every frame with it and ignores what does not match.
 *
 * Small on purpose: clients refetch through the API, so permission checks stay in one place.
 * messages_read tells a sender that the other side read up to a message (read receipts);
 * client_joined tells the owner that an invite was used, so the list stops saying "Pending
 * Invite" without a reload. branding_updated tells a client's open portal that its owner changed
 * what the portal shows of them (colours, logo, company name, profile picture, name).
 *
 * zod/mini rather than zod: this module is in both web bundles (the client portal included),
 * and the mini build is a fraction of the size for the same checks.
 */
import * as z from "zod/mini";

/**
 * An id as events carry it. The browser only matches it against its own lists; the server,
 * which looks the conversation up, also requires a uuid (server/realtime/wire.ts).
 */
const eventId = z.string().check(z.minLength(1), z.maxLength(100));

export const MESSAGE_EVENT_TYPES = ["new_message", "feedback_updated", "messages_read"] as const;
export type MessageEventType = (typeof MESSAGE_EVENT_TYPES)[number];

const messageEventSchema = z.object({
  type: z.enum(MESSAGE_EVENT_TYPES),
  clientId: eventId,
  messageId: eventId,
});
export type MessageEvent = z.infer<typeof messageEventSchema>;

const clientJoinedSchema = z.object({
  type: z.literal("client_joined"),
  clientId: eventId,
  messageId: z.optional(z.undefined()),
});

const brandingUpdatedSchema = z.object({
  type: z.literal("branding_updated"),
  clientId: eventId,
  messageId: z.optional(z.undefined()),
});

/** Unknown fields are stripped, so a parsed event is exactly what may go on the wire. */
export const realtimeEventSchema = z.discriminatedUnion("type", [
  messageEventSchema,
  clientJoinedSchema,
  brandingUpdatedSchema,
]);
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;
export type RealtimeEventType = RealtimeEvent["type"];

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
