import { z } from "zod";
import { MESSAGE_MAX_LENGTH } from "../message-limits";
import { messageSchema as messagePayloadSchema, VISIBILITIES } from "./message-payload";
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
  /** `internal`: a note only the workspace's staff see (issue 26); `client` when absent. */
  visibility: z.enum(VISIBILITIES, { error: "Visibility must be client or internal" }).optional(),
});
export type SendMessageInput = z.infer<typeof sendMessageInput>;

/** Query of GET /api/clients/{id}/messages: the newest page, or the page before a message. */
export const messagePageQuery = z.object({
  before: z.uuid({ error: "before must be a message id" }).optional(),
  after: z.uuid({ error: "after must be a message id" }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(MESSAGE_PAGE_SIZE),
});

export {
  FEEDBACK_STATUSES,
  type FeedbackStatus,
  type MessagePayload,
  VISIBILITIES,
  type Visibility,
} from "./message-payload";

/** The API's answer for one message: the fields of the one the realtime event carries. */
export const messageSchema = z.strictObject(messagePayloadSchema.shape);

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
