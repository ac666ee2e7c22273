/**
 * Presence over /ws (issue 26, part 5): staff see which colleagues have a conversation open and
 * who is typing in it, so that two people do not answer the same client.
 *
 * The browser of a staff member sends a `presence` frame when a conversation opens
 * (`viewing`), while its composer is typed in (`typing`, at most every PRESENCE_TYPING_EVERY_MS)
 * and when it closes or the tab is hidden (`idle`). Opening another conversation on the same
 * socket leaves the previous one. The server answers nothing; it sends each of the other staff
 * who have that client a `presence` event (shared/realtime-events.ts) with the whole list of
 * people there, never deltas: a missed event is mended by the next one. Frames from a client's
 * socket, malformed ones and ones about a client the sender cannot see are ignored silently.
 *
 * zod/mini like the events, for the same reason (loaded after the first paint).
 */
import * as z from "zod/mini";

export const PRESENCE_STATES = ["viewing", "typing", "idle"] as const;
export type PresenceState = (typeof PRESENCE_STATES)[number];
/** What a person in a conversation is doing (idle people are not listed). */
export type PersonPresenceState = Exclude<PresenceState, "idle">;

export { PRESENCE_TYPING_ENDS_MS, PRESENCE_TYPING_EVERY_MS } from "./presence-timing";

/** A frame a staff member's browser sends. Unknown fields are stripped. */
export const presenceFrameSchema = z.object({
  type: z.literal("presence"),
  clientId: z.string().check(z.minLength(1), z.maxLength(100)),
  state: z.enum(PRESENCE_STATES),
});
export type PresenceFrame = z.infer<typeof presenceFrameSchema>;

/** One person in a conversation, as the other staff see them. */
export const presentPersonSchema = z.object({
  userId: z.string().check(z.minLength(1), z.maxLength(100)),
  name: z.string().check(z.maxLength(200)),
  /** Their profile picture's URL, or null (initials instead). */
  picture: z.nullable(z.string().check(z.maxLength(300))),
  state: z.enum(["viewing", "typing"]),
});
export type PresentPerson = z.infer<typeof presentPersonSchema>;

/** The most people one presence event lists (a workspace is a handful; this bounds a frame). */
export const PRESENCE_MAX_PEOPLE = 50;
