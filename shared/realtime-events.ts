/**
 * Events sent over /ws, and how the sockets close: one definition for the server, which
 * checks every event against this schema before it goes out, and for the browser, which
 * parses every frame with it and ignores what does not match.
 *
 * Small on purpose: clients refetch through the API, so permission checks stay in one place.
 * The exception is new_message, the one event sent many times a second: it carries the message
 * as its recipient may see it (presented by the server for each side, as the API would), so the
 * other side shows it without a request; `afterId` names the message before it, and a page
 * whose newest message is another one (an event missed, or arriving out of order) fetches.
 * messages_read tells a sender that the other side read up to a message (read receipts);
 * client_joined tells the owner that an invite was used, so the list stops saying "Pending
 * Invite" without a reload. branding_updated tells a client's open portal that its owner changed
 * what the portal shows of them (colours, logo, company name, profile picture, name).
 * team_changed, the one event about no conversation, tells a workspace's staff to look at
 * their team again.
 *
 * zod/mini rather than zod: the browser loads this module after the first paint
 * (web/src/realtime/realtime-connection.ts), and the mini build is a fraction of the size for
 * the same checks. Close codes and types live in shared/realtime.ts, which has no zod.
 */
import * as z from "zod/mini";
import { PRESENCE_MAX_PEOPLE, presentPersonSchema } from "./realtime-presence";
import { messageSchema } from "./schemas/message-payload";

/**
 * An id as events carry it. The browser only matches it against its own lists; the server,
 * which looks the conversation up, also requires a uuid (server/realtime/wire.ts).
 */
const eventId = z.string().check(z.minLength(1), z.maxLength(100));

export const MESSAGE_EVENT_TYPES = [
  "new_message",
  "feedback_updated",
  "messages_read",
  "message_updated",
  "message_deleted",
] as const;
export type MessageEventType = (typeof MESSAGE_EVENT_TYPES)[number];

const newMessageSchema = z.object({
  type: z.literal("new_message"),
  clientId: eventId,
  messageId: eventId,
  /** The message as this recipient sees it; absent when it did not fit the event (fetch it). */
  message: z.optional(messageSchema),
  /** The conversation's message just before it (none for the first). */
  afterId: z.optional(z.nullable(eventId)),
});
export type NewMessageEvent = z.infer<typeof newMessageSchema>;

/**
 * feedback_updated: a decision or due date; messages_read: a read mark moved; message_updated
 * and message_deleted (issue 28): its author edited or deleted it (an internal note's, to the
 * staff only). The pages fetch the conversation again.
 */
const messageChangeSchema = z.object({
  type: z.enum(["feedback_updated", "messages_read", "message_updated", "message_deleted"]),
  clientId: eventId,
  messageId: eventId,
});
export type MessageEvent = NewMessageEvent | z.infer<typeof messageChangeSchema>;

const clientJoinedSchema = z.object({
  type: z.literal("client_joined"),
  clientId: eventId,
  messageId: z.optional(z.undefined()),
});

/** Who handles the conversation changed (issue 26): the staff's lists and pages look again. */
const clientAccessChangedSchema = z.object({
  type: z.literal("client_access_changed"),
  clientId: eventId,
  messageId: z.optional(z.undefined()),
});

const brandingUpdatedSchema = z.object({
  type: z.literal("branding_updated"),
  clientId: eventId,
  messageId: z.optional(z.undefined()),
});

/**
 * Who else has the conversation open, and who is typing in it (issue 26, presence): the whole
 * list, the recipient left out, to the staff only (shared/realtime-presence.ts).
 */
const presenceSchema = z.object({
  type: z.literal("presence"),
  clientId: eventId,
  messageId: z.optional(z.undefined()),
  people: z.array(presentPersonSchema).check(z.maxLength(PRESENCE_MAX_PEOPLE)),
});
export type PresenceEvent = z.infer<typeof presenceSchema>;

/**
 * The workspace's team changed (issue 26): an invite, a join, a role, a removal or the seats.
 * To its staff only, about no conversation: their Team tab, seats and own role look again.
 */
const teamChangedSchema = z.object({
  type: z.literal("team_changed"),
  clientId: z.optional(z.undefined()),
  messageId: z.optional(z.undefined()),
});

/**
 * The marks on a file version changed (issue 27): one was made, replied to, resolved or
 * reopened. `messageId` is the version's message; open viewers and "open marks" counts fetch.
 * A staff-only mark's change goes to the staff only.
 */
const annotationsChangedSchema = z.object({
  type: z.literal("annotations_changed"),
  clientId: eventId,
  messageId: eventId,
});

/**
 * The scheduled messages of a conversation changed (issue 28): one was scheduled, edited, sent
 * or cancelled. To the side that scheduled it only (the other side never learns of it); its
 * open pages fetch GET /api/clients/{id}/scheduled again.
 */
const scheduledChangedSchema = z.object({
  type: z.literal("scheduled_changed"),
  clientId: eventId,
  messageId: z.optional(z.undefined()),
});

/** Unknown fields are stripped, so a parsed event is exactly what may go on the wire. */
export const realtimeEventSchema = z.discriminatedUnion("type", [
  newMessageSchema,
  messageChangeSchema,
  clientJoinedSchema,
  clientAccessChangedSchema,
  brandingUpdatedSchema,
  presenceSchema,
  teamChangedSchema,
  annotationsChangedSchema,
  scheduledChangedSchema,
]);
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;
export type RealtimeEventType = RealtimeEvent["type"];
/** An event about one conversation: every one but team_changed. */
export type ConversationEvent = Exclude<RealtimeEvent, { type: "team_changed" }>;
