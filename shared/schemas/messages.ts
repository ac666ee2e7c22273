import { z } from "zod";
import { MESSAGE_MAX_LENGTH } from "../message-limits";
import { multiLineText } from "./text";

export { MESSAGE_MAX_LENGTH };
export const MESSAGE_PAGE_SIZE = 50;

export const sendMessageInput = z.strictObject({
  content: multiLineText({
    label: "Message",
    max: MESSAGE_MAX_LENGTH,
    requiredMessage: "Message cannot be empty",
    tooLongMessage: `Messages are limited to ${MESSAGE_MAX_LENGTH.toLocaleString("en-US")} characters`,
  }).refine((value) => value.trim().length > 0, "Message cannot be empty"),
});
export type SendMessageInput = z.infer<typeof sendMessageInput>;

/** Query of GET /api/clients/{id}/messages: the newest page, or the page before a message. */
export const messagePageQuery = z.object({
  before: z.uuid({ error: "before must be a message id" }).optional(),
  after: z.uuid({ error: "after must be a message id" }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(MESSAGE_PAGE_SIZE),
});

export const FEEDBACK_STATUSES = ["pending", "approved", "needs_work"] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

export const messageSchema = z.strictObject({
  id: z.string(),
  content: z.string().nullable(),
  fileUrl: z.string().nullable(),
  /**
   * An image's server-made preview (WebP, at most 1600 px a side), which is what the
   * conversation shows; null for other files and text. The original is only downloaded.
   */
  previewUrl: z.string().nullable().optional(),
  fileName: z.string().nullable(),
  senderRole: z.enum(["owner", "client"]),
  senderName: z.string(),
  requiresFeedback: z.boolean(),
  feedbackStatus: z.enum(FEEDBACK_STATUSES).nullable(),
  feedbackComment: z.string().nullable(),
  createdAt: z.string(),
  // The fields below are always sent by this server; they are optional in the type only so
  // that client code written before them (which treats them as possibly absent) type-checks.
  /** Size of the attached file in bytes; null for a text message. */
  fileSize: z.number().nullable().optional(),
  /** When the client decided (approved or needs_work); null while pending or without feedback. */
  feedbackAt: z.string().nullable().optional(),
  /** Who decided: the client's name; null while pending or without feedback. */
  feedbackByName: z.string().nullable().optional(),
  /**
   * Versions of a file sent for approval: the first message of the file's thread (null for the
   * first version itself and for any other message), and this message's number in it (1, 2, ...).
   */
  versionOf: z.string().nullable().optional(),
  versionNumber: z.number().nullable().optional(),
  /** No later version of this file exists (the owner may answer a needs_work one with one). */
  isLatestVersion: z.boolean().optional(),
  /** For the viewer's own messages: the other side has read it. For theirs: the viewer has. */
  read: z.boolean(),
});
export type MessagePayload = z.infer<typeof messageSchema>;

/**
 * A conversation's newest page as a first screen carries it (GET /api/portal/{id}, GET
 * /api/dashboard): what GET /api/clients/{id}/messages answers, oldest to newest, and its
 * X-Has-More header as hasMore.
 */
export const newestMessagePageSchema = z.strictObject({
  messages: z.array(messageSchema),
  hasMore: z.boolean(),
});
export type NewestMessagePage = z.infer<typeof newestMessagePageSchema>;

export const markReadInput = z.strictObject({
  /** The newest message the viewer has seen. */
  messageId: z.uuid({ error: "messageId must be a message id" }),
});
