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

/**
 * Who must approve a file sent for approval (issue 27): `any` one of the client's people
 * decides for all, or `everyone` asked when it was sent must approve (docs/decisions.md,
 * "Approvers").
 */
export const APPROVAL_RULES = ["any", "everyone"] as const;
export type ApprovalRule = (typeof APPROVAL_RULES)[number];

/** One person's decision on a file sent for approval: pending while they are still asked. */
export const approvalSchema = z.strictObject({
  /** Their user id: the portal knows by it whether the viewer still has to decide. */
  userId: text,
  name: text,
  status: z.enum(FEEDBACK_STATUSES),
  comment: nullableText,
  decidedAt: nullableText,
});
export type ApprovalPayload = z.infer<typeof approvalSchema>;

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
  /**
   * A file sent for approval: its review marks still open (issue 27; the staff's count includes
   * their staff-only marks). 0 for any other message.
   */
  openMarks: z.optional(z.number()),
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
  /** The file thread's due date (issue 27), YYYY-MM-DD in no time zone; null without one. */
  dueDate: z.optional(nullableText),
  /** For a file sent for approval: who must approve (absent on any other message). */
  approvalRule: z.optional(z.enum(APPROVAL_RULES)),
  /**
   * For a file sent for approval: each person's decision, in the client's order. With `any`,
   * the one decision once taken; with `everyone`, every person asked.
   */
  approvals: z.optional(z.array(approvalSchema)),
  /**
   * The writer's user id (issue 28: the page offers Edit and Delete on the viewer's own
   * messages); null once their row is gone.
   */
  authorId: z.optional(nullableText),
  /** When its author last edited its text (issue 28); null if never. */
  editedAt: z.optional(nullableText),
  /**
   * Its author deleted it (issue 28): its text and file fields are null, and the conversation
   * shows "Message deleted" in its place.
   */
  deleted: z.optional(z.boolean()),
});
export type MessagePayload = z.infer<typeof messageSchema>;
