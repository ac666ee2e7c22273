import { type ConversationEvent, realtimeEventSchema } from "../../shared/realtime-events";
import type { Role } from "../../shared/schemas/user";
import { PRESENCE_STATES, type PresenceState } from "../../shared/realtime-presence";
import { isUuid } from "../validate";
import type { HubMessage } from "./hub";
import { packViews, unpackViews } from "./packed-views";

/** A session id's SHA-256, as sessions are stored. */
const SESSION_HASH = /^[0-9a-f]{64}$/;

/**
 * The event as it may go out to a conversation's sides (the shared schema: exactly its own
 * fields), or null. The conversation id must also be a uuid here: the server looks it up in the
 * database. team_changed names no conversation and has its own way (HubMessage "team_changed").
 */
export function readRealtimeEvent(value: unknown): ConversationEvent | null {
  const parsed = realtimeEventSchema.safeParse(value);
  if (!parsed.success || parsed.data.type === "team_changed") return null;
  const event = parsed.data;
  if (!isUuid(event.clientId)) return null;
  // Presence is for the staff only and has its own way (HubMessage "presence"): an event that
  // would go to both sides of a conversation is never one.
  if (event.type === "presence") return null;
  // A message goes out only as each side's own view (views), never as one copy for both sides.
  if (event.type === "new_message" && event.message) {
    const { message: _sameForBoth, ...ids } = event;
    return ids;
  }
  return event;
}

/** The longest an ended session's sockets may be left open (the renewed browser's grace). */
const MAX_SESSION_END_DELAY_MS = 60_000;

/** Postgres refuses NOTIFY payloads of 8,000 bytes or more: a uuid list is cut well below. */
const USER_IDS_PER_MESSAGE = 100;
/** Room left for batching several messages into one payload. */
export const MAX_PAYLOAD_BYTES = 7_500;

/**
 * The JSON texts that carry `message` between instances, one message each (a long disconnect
 * list is split). `batchPayloads` packs them into NOTIFY payloads.
 */
export function encodeHubMessage(message: HubMessage): string[] {
  switch (message.kind) {
    case "event": {
      const event = readRealtimeEvent(message.event);
      if (!event) return [];
      // A long message does not fit: its event goes with ids only, and the pages fetch it.
      // Who hears of it (`sides`, an internal note's) travels either way.
      const sides = message.sides && { sides: message.sides };
      const views = message.views && packViews(message.views);
      const withViews = views && JSON.stringify({ kind: "event", event, views, ...sides });
      return [
        withViews && Buffer.byteLength(withViews) <= MAX_PAYLOAD_BYTES
          ? withViews
          : JSON.stringify({ kind: "event", event, ...sides }),
      ];
    }
    case "disconnect":
    case "team_changed": {
      const payloads: string[] = [];
      for (let i = 0; i < message.userIds.length; i += USER_IDS_PER_MESSAGE) {
        payloads.push(
          JSON.stringify({
            kind: message.kind,
            userIds: message.userIds.slice(i, i + USER_IDS_PER_MESSAGE),
          }),
        );
      }
      return payloads;
    }
    case "access_changed": {
      // Everyone to tell, a hundred a payload; each payload also refreshes the members.
      const payloads: string[] = [];
      for (let i = 0; i === 0 || i < message.userIds.length; i += USER_IDS_PER_MESSAGE) {
        payloads.push(
          JSON.stringify({
            kind: "access_changed",
            clientId: message.clientId,
            userIds: message.userIds.slice(i, i + USER_IDS_PER_MESSAGE),
          }),
        );
      }
      return payloads;
    }
    case "session_ended":
    case "presence":
      return [JSON.stringify(message)];
    case "resync":
    case "rows_changed":
      return [];
  }
}

/**
 * Takes encoded messages from the front of `queue` while they fit in one payload (at least
 * one), and returns them as a JSON array text with how many were taken.
 */
export function batchPayload(queue: readonly string[]): { payload: string; count: number } {
  let bytes = 2;
  let count = 0;
  for (const item of queue) {
    const size = Buffer.byteLength(item) + (count > 0 ? 1 : 0);
    if (count > 0 && bytes + size > MAX_PAYLOAD_BYTES) break;
    bytes += size;
    count += 1;
  }
  return { payload: `[${queue.slice(0, count).join(",")}]`, count };
}

/**
 * Parses and checks a payload from another instance: one message or an array of them. What
 * is malformed is left out; null when the payload is not JSON at all.
 */
export function decodeHubPayload(
  payload: string,
): { messages: HubMessage[]; dropped: number } | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  const items = Array.isArray(value) ? value : [value];
  const messages: HubMessage[] = [];
  for (const item of items) {
    const message = decodeMessage(item);
    if (message) messages.push(message);
  }
  return { messages, dropped: items.length - messages.length };
}

/** The sides an event goes to, as transmitted; null unless one or both roles, once each. */
function readSides(value: unknown): Role[] | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > 2) return null;
  if (!value.every((side) => side === "owner" || side === "client")) return null;
  return new Set(value).size === value.length ? (value as Role[]) : null;
}

/** One message; null for anything malformed. */
export function decodeHubMessage(payload: string): HubMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  return decodeMessage(value);
}

function decodeMessage(value: unknown): HubMessage | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const event = record.kind === "event" ? readRealtimeEvent(record.event) : null;
  if (event) {
    // Views that do not check out are left out: the pages fetch the message instead.
    const views =
      record.views === undefined || event.type !== "new_message"
        ? null
        : unpackViews(event.messageId, record.views);
    // Sides that do not check out drop the event: better unheard than heard by the client.
    const sides = record.sides === undefined ? undefined : readSides(record.sides);
    if (sides === null) return null;
    return { kind: "event", event, ...(views && { views }), ...(sides && { sides }) };
  }
  if (
    (record.kind === "disconnect" || record.kind === "team_changed") &&
    Array.isArray(record.userIds) &&
    record.userIds.length > 0 &&
    record.userIds.length <= USER_IDS_PER_MESSAGE &&
    record.userIds.every(isUuid)
  ) {
    return { kind: record.kind, userIds: [...record.userIds] };
  }
  if (
    record.kind === "access_changed" &&
    isUuid(record.clientId) &&
    Array.isArray(record.userIds) &&
    record.userIds.length <= USER_IDS_PER_MESSAGE &&
    record.userIds.every(isUuid)
  ) {
    return { kind: "access_changed", clientId: record.clientId, userIds: [...record.userIds] };
  }
  if (record.kind === "presence") return readPresence(record);
  if (
    record.kind === "session_ended" &&
    typeof record.sessionHash === "string" &&
    SESSION_HASH.test(record.sessionHash)
  ) {
    const { afterMs } = record;
    return Number.isInteger(afterMs) &&
      (afterMs as number) > 0 &&
      (afterMs as number) <= MAX_SESSION_END_DELAY_MS
      ? { kind: "session_ended", sessionHash: record.sessionHash, afterMs: afterMs as number }
      : { kind: "session_ended", sessionHash: record.sessionHash };
  }
  return null;
}

/** A profile picture's address as the server makes it (presenters/user.ts fileUrl). */
const PICTURE_URL = /^\/api\/download\/[A-Za-z0-9._-]{1,200}$/;

/** A presence announcement from another instance; null unless every field checks out. */
function readPresence(record: Record<string, unknown>): HubMessage | null {
  const { clientId, connectionId, userId, name, picture, state } = record;
  if (!isUuid(clientId) || !isUuid(connectionId) || !isUuid(userId)) return null;
  if (typeof name !== "string" || name.length > 200) return null;
  if (picture !== null && !(typeof picture === "string" && PICTURE_URL.test(picture))) return null;
  if (!PRESENCE_STATES.includes(state as PresenceState)) return null;
  return {
    kind: "presence",
    clientId,
    connectionId,
    userId,
    name,
    picture,
    state: state as PresenceState,
  };
}
