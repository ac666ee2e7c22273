import type { Knex } from "knex";
import type { FeedbackInput } from "../../shared/schemas/files";
import type { Services } from "../context";
import { badRequest, conflict } from "../errors";
import { type Client, Message, type User } from "../models";
import type { RecordedEvent } from "../domain-events/events";
import { takeApproval } from "./approval-rule";
import { settleVersion } from "./settle-version";
import { msg } from "../../shared/i18n/msg";

export const FEEDBACK_MESSAGES = {
  noFeedbackAsked: msg("This message does not ask for feedback"),
  alreadyDecided: msg("Feedback on this file was already given"),
} as const;

/**
 * The client's decision on an owner's file that requires feedback: pending to approved or
 * needs_work, once. The row is locked, so of two decisions at once exactly one is taken and
 * the other answers 409; a decided version never changes again. Approving resolves the
 * version's open review marks (issue 27). Records FeedbackDecided (and AnnotationsChanged).
 * Each person's decision is recorded by the file's approval rule (approval-rule.ts): with
 * `everyone` a decision may leave the version pending, waiting for the others.
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
    const now = services.clock.now();
    const outcome = await takeApproval(trx, current, actor, {
      status: input.feedbackStatus,
      comment,
      at: now,
    });
    const settled =
      outcome === "pending"
        ? { message: current, recorded: [] }
        : await settleVersion(services, trx, current, {
            status: outcome,
            comment,
            at: now,
            by: actor,
          });
    const recorded: RecordedEvent[] = [
      await services.events.record(trx, {
        type: "FeedbackDecided",
        clientId: client.id,
        messageId,
      }),
      ...settled.recorded,
    ];
    return { message: settled.message, recorded };
  });
  services.events.dispatch(recorded);
  return message;
}
