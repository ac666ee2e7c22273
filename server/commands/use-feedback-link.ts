import type { UseFeedbackLinkInput } from "../../shared/schemas/feedback-links";
import { feedbackInput } from "../../shared/schemas/files";
import type { Services } from "../context";
import { gone } from "../errors";
import { FeedbackLink, type Message, type User } from "../models";
import { feedbackLinkPolicy } from "../policies/feedback-links";
import { FEEDBACK_LINK_MESSAGES, type FoundFeedbackLink } from "../queries/find-feedback-link";
import { parseOrThrow } from "../validate";
import { decideFeedback } from "./decide-feedback";
import { markRead } from "./mark-read";

/**
 * The confirmation of an email's Approve or Needs Work: the same decision as the app's
 * (decideFeedback: the state change, feedback_updated to both sides), taken by the client user
 * the link was mailed to, with the link used up in the same transaction. 410 when the link was
 * used or has expired, 409 when the file was decided meanwhile (the link stays unused), 400
 * when Needs Work comes without a comment.
 *
 * The client saw the file (in the email) and answered it, as they would have in the app with
 * the conversation open: their side is marked read up to it, which also re-arms their email
 * notifications (one email until the recipient comes back).
 */
export async function useFeedbackLink(
  services: Services,
  found: FoundFeedbackLink,
  viewer: User | undefined,
  input: UseFeedbackLinkInput,
): Promise<Message> {
  const { link, client, user } = found;
  feedbackLinkPolicy.authorize(user, "decide", { link, client, viewer });
  // The app's own rules for the decision: a comment is required for Needs Work, and as long.
  const decision = parseOrThrow(feedbackInput, {
    feedbackStatus: link.decision === "approve" ? "approved" : "needs_work",
    feedbackComment: input.comment ?? null,
  });
  const decided = await decideFeedback(services, user, client, found.message.id, decision, {
    inTransaction: async (trx) => {
      const now = services.clock.now();
      // One conditional update: of two confirmations at once, exactly one takes the link.
      const taken = await FeedbackLink.query(trx)
        .patch({ usedAt: now })
        .where({ id: link.id })
        .whereNull("usedAt")
        .where("expiresAt", ">", now);
      if (taken === 0) {
        const current = await FeedbackLink.query(trx).findById(link.id);
        throw gone(current?.usedAt ? FEEDBACK_LINK_MESSAGES.used : FEEDBACK_LINK_MESSAGES.expired);
      }
    },
  });
  try {
    await markRead(services, user, client, decided.id);
  } catch (error) {
    // The decision stands; the read mark follows when the client next opens the conversation.
    services.logger.warn(
      { err: error, clientId: client.id },
      "could not mark read after a link decision",
    );
  }
  return decided;
}
