import { z } from "zod";
import { VISIBILITIES } from "./message-payload";
import { messageContentSchema } from "./messages";
import { SCHEDULE_MESSAGES, sendAtSchema } from "./send-at";

export {
  SCHEDULE_MAX_AHEAD_MS,
  SCHEDULE_MESSAGES,
  SCHEDULE_MIN_LEAD_MS,
  sendAtSchema,
} from "./send-at";

/**
 * Scheduled send (issue 28, point 2): a message written now and sent later, as if typed then.
 * Until it is sent it lives apart from the conversation (server: `scheduled_messages`), and only
 * its author's side of the conversation sees it.
 */

/** Body of PATCH /api/messages/{id} for a scheduled message: new text, new time, or both. */
export const updateScheduledMessageInput = z
  .strictObject({
    content: messageContentSchema.optional(),
    sendAt: sendAtSchema.optional(),
  })
  .refine(
    (input) => input.content !== undefined || input.sendAt !== undefined,
    SCHEDULE_MESSAGES.nothingToChange,
  );
export type UpdateScheduledMessageInput = z.infer<typeof updateScheduledMessageInput>;

/** A scheduled message as its author's side sees it (never the other side). */
export const scheduledMessageSchema = z.strictObject({
  id: z.string(),
  clientId: z.string(),
  content: z.string(),
  /** ISO 8601, UTC. */
  sendAt: z.string(),
  status: z.literal("scheduled"),
  author: z.strictObject({ id: z.string(), name: z.string() }),
  /** `internal`: it will be sent as an internal note (staff only). */
  visibility: z.enum(VISIBILITIES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ScheduledMessage = z.infer<typeof scheduledMessageSchema>;
