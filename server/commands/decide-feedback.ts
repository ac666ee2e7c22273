import type { Knex } from "knex";
import type { FeedbackInput } from "../../shared/schemas/files";
import type { Services } from "../context";
import { badRequest, conflict } from "../errors";
import { type Client, Message, type User } from "../models";

export const FEEDBACK_MESSAGES = {
  noFeedbackAsked: "This message does not ask for feedback",
  alreadyDecided: "Feedback on this file was already given",
} as const;

/**
 * The client's decision on an owner's file that requires feedback: pending to approved or
 * needs_work, once. The row is locked, so of two decisions at once exactly one is taken and
 * the other answers 409; a decided version never changes again. Records FeedbackDecided.
 *
 * `options.inTransaction` runs first in the same transaction (an email's link is used up
 * there, so the link and the decision are taken together or not at all).
 */
export async function decideFeedback(
  services: Services,
  actor: User,
  client: Client,
  messageId: string,
  input: FeedbackInput,
  options: { inTransaction?: (trx: Knex.Transaction) => Promise<void> } = {},
): Promise<Message> {
  const comment = input.feedbackComment?.trim() || null;
  const { message, recorded } = await services.db.transaction(async (trx) => {
    await options.inTransaction?.(trx);
    const current = await Message.query(trx)
      .findOne({ id: messageId, clientId: client.id })
      .forUpdate();
    if (!current?.fileId || !current.requiresFeedback || current.senderRole !== "owner")
      throw badRequest(FEEDBACK_MESSAGES.noFeedbackAsked);
    if (current.feedbackStatus !== "pending") throw conflict(FEEDBACK_MESSAGES.alreadyDecided);
    const decided = await Message.query(trx).patchAndFetchById(messageId, {
      feedbackStatus: input.feedbackStatus,
      feedbackComment: comment,
      feedbackAt: services.clock.now(),
      feedbackBy: actor.id,
    });
    return {
      message: decided,
      recorded: await services.events.record(trx, {
        type: "FeedbackDecided",
        clientId: client.id,
        messageId,
      }),
    };
  });
  services.events.dispatch(recorded);
  return message;
}
