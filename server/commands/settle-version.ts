import type { Knex } from "knex";
import type { Services } from "../context";
import type { RecordedEvent } from "../domain-events/events";
import { Message, type User } from "../models";
import { resolveMarksOnApproval } from "./open-marks";

/**
 * A version's decision taken (issue 27), inside the deciding transaction: the message gets its
 * status, comment and decider; approving resolves its open marks by the decider. Answers the
 * decided message and the AnnotationsChanged event when marks were resolved (the caller
 * records FeedbackDecided, which it also sends for a decision that leaves the version pending).
 */
export async function settleVersion(
  services: Pick<Services, "events">,
  trx: Knex.Transaction,
  message: Pick<Message, "id" | "clientId">,
  decision: { status: "approved" | "needs_work"; comment: string | null; at: Date; by: User },
): Promise<{ message: Message; recorded: RecordedEvent[] }> {
  const decided = await Message.query(trx).patchAndFetchById(message.id, {
    feedbackStatus: decision.status,
    feedbackComment: decision.comment,
    feedbackAt: decision.at,
    feedbackBy: decision.by.id,
  });
  const resolved =
    decision.status === "approved"
      ? await resolveMarksOnApproval(trx, message.id, decision.by, decision.at)
      : 0;
  const recorded =
    resolved > 0
      ? [
          await services.events.record(trx, {
            type: "AnnotationsChanged",
            clientId: message.clientId,
            messageId: message.id,
            visibility: "client",
          }),
        ]
      : [];
  return { message: decided, recorded };
}
