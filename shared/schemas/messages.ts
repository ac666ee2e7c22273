import { z } from "zod";
import { MESSAGE_MAX_LENGTH } from "../message-limits";
import { messageSchema as messagePayloadSchema, VISIBILITIES } from "./message-payload";
import { sendAtSchema } from "./send-at";
import { multiLineText } from "./text";

export { MESSAGE_MAX_LENGTH };
export const MESSAGE_PAGE_SIZE = 50;

/** A message's text: not blank, at most MESSAGE_MAX_LENGTH characters. */
export const messageContentSchema = multiLineText({
  max: MESSAGE_MAX_LENGTH,
  requiredMessage: msg("Message cannot be empty"),
  // MESSAGE_MAX_LENGTH written out: a literal for the extractor (written-out-limits.test.ts).
  tooLongMessage: msg("Messages are limited to 10,000 characters"),
}).refine((value) => value.trim().length > 0, msg("Message cannot be empty"));

export const sendMessageInput = z.strictObject({
  content: messageContentSchema,
  /** `internal`: a note only the workspace's staff see (issue 26); `client` when absent. */
  visibility: z
    .enum(VISIBILITIES, { error: msg("Visibility must be client or internal") })
    .optional(),
  /**
   * Scheduled send (issue 28): send at this time instead of now; the answer is the scheduled
   * message (shared/schemas/scheduled-messages.ts).
   */
  sendAt: sendAtSchema.optional(),
});
export type SendMessageInput = z.infer<typeof sendMessageInput>;

/** Query of GET /api/clients/{id}/messages: the newest page, or the page before a message. */
export const messagePageQuery = z.object({
  before: z.uuid({ error: msg("before must be a message id") }).optional(),
  after: z.uuid({ error: msg("after must be a message id") }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(MESSAGE_PAGE_SIZE),
});

export {
  APPROVAL_RULES,
  type ApprovalRule,
  type ApprovalPayload,
  FEEDBACK_STATUSES,
  type FeedbackStatus,
  type MessagePayload,
  VISIBILITIES,
  type Visibility,
} from "./message-payload";
import { msg } from "../i18n/msg";

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
  messageId: z.uuid({ error: msg("messageId must be a message id") }),
});
