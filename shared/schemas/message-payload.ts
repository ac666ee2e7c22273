/**
 * A message as it leaves the server (GET /api/clients/{id}/messages, and the `new_message`
 * event that carries it). zod/mini, so that the browser's realtime module, loaded after the
 * first paint (shared/realtime-events.ts), checks events with it at a fraction of the size;
 * zod's classic schemas take it as it is (shared/schemas/messages.ts re-exports it).
 */
import * as z from "zod/mini";

export const FEEDBACK_STATUSES = ["pending", "approved", "needs_work"] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

/**
 * Who may read a message (issue 26, internal notes): `client`, both sides of the conversation;
 * `internal`, a note of the workspace's staff that the client never receives by any path.
 */
export const VISIBILITIES = ["client", "internal"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

const text = z.string();
const nullableText = z.nullable(z.string());

export const messageSchema = z.strictObject({
  id: text,
  content: nullableText,
  fileUrl: nullableText,
  /**
   * An image's server-made preview (WebP, at most 1600 px a side), which is what the
   * conversation shows; null for other files and text. The original is only downloaded.
   */
  previewUrl: z.optional(nullableText),
  fileName: nullableText,
  senderRole: z.enum(["owner", "client"]),
  senderName: text,
  requiresFeedback: z.boolean(),
  feedbackStatus: z.nullable(z.enum(FEEDBACK_STATUSES)),
  feedbackComment: nullableText,
  createdAt: text,
  // The fields below are always sent by this server; they are optional in the type only so
  // that client code written before them (which treats them as possibly absent) type-checks.
  /** Size of the attached file in bytes; null for a text message. */
  fileSize: z.optional(z.nullable(z.number())),
  /** When the client decided (approved or needs_work); null while pending or without feedback. */
  feedbackAt: z.optional(nullableText),
  /** Who decided: the client's name; null while pending or without feedback. */
  feedbackByName: z.optional(nullableText),
  /**
   * Versions of a file sent for approval: the first message of the file's thread (null for the
   * first version itself and for any other message), and this message's number in it (1, 2, ...).
   */
  versionOf: z.optional(nullableText),
  versionNumber: z.optional(z.nullable(z.number())),
  /** No later version of this file exists (the owner may answer a needs_work one with one). */
  isLatestVersion: z.optional(z.boolean()),
  /** For the viewer's own messages: the other side has read it. For theirs: the viewer has. */
  read: z.boolean(),
  /**
   * Who wrote it, by their own name: on the owner's side the team member (owner, admin or
   * member), on the client's the client user. `senderName` stays the side's name as this viewer
   * knows it (to the client, the agency's company name); docs/decisions.md, "Workspaces and
   * teams".
   */
  authorName: z.optional(text),
  /** The writer's profile picture (`/api/download/...`), or null when they have none. */
  authorPicture: z.optional(nullableText),
  /**
   * `internal` for a note of the workspace's staff (the client never receives one), else
   * `client`; docs/decisions.md, "Workspaces and teams".
   */
  visibility: z.optional(z.enum(VISIBILITIES)),
});
export type MessagePayload = z.infer<typeof messageSchema>;
