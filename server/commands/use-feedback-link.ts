import type { Knex } from "knex";
import type { UseFeedbackLinkInput } from "../../shared/schemas/feedback-links";
import { feedbackInput } from "../../shared/schemas/files";
import { hashToken } from "../auth/sessions";
import type { Services } from "../context";
import { HttpError, notFound } from "../errors";
import { parseOrThrow } from "../middlewares/validate";
import { Client, FeedbackLink, Message, StoredFile, User } from "../models";
import { feedbackLinkPolicy } from "../policies/feedback-links";
import { decideFeedback } from "./decide-feedback";
import { markRead } from "./mark-read";
import { isWellFormedFeedbackToken } from "./issue-feedback-links";

export const FEEDBACK_LINK_MESSAGES = {
  invalid: "This link is not valid.",
  used: "This link was already used.",
  expired: "This link has expired: links in emails work for 7 days.",
} as const;

/** A link with what its page shows: the file message, its file, the conversation and owner. */
export interface FoundFeedbackLink {
  link: FeedbackLink;
  message: Message;
  file: StoredFile | undefined;
  client: Client;
  owner: User;
  /** The client user the link was mailed to. */
  user: User;
}

/** The link a token names with its file and conversation; 404 when unknown. Reads only. */
export async function findFeedbackLink(db: Knex, token: string): Promise<FoundFeedbackLink> {
  if (!isWellFormedFeedbackToken(token)) throw notFound(FEEDBACK_LINK_MESSAGES.invalid);
  const link = await FeedbackLink.query(db).findOne({ tokenHash: hashToken(token) });
  const message = link ? await Message.query(db).findById(link.messageId) : undefined;
  const client = message ? await Client.query(db).findById(message.clientId) : undefined;
  const [owner, user, file] = await Promise.all([
    client ? User.query(db).findById(client.ownerId) : undefined,
    link ? User.query(db).findById(link.userId) : undefined,
    message?.fileId ? StoredFile.query(db).findById(message.fileId) : undefined,
  ]);
  if (!link || !message || !client || !owner || !user)
    throw notFound(FEEDBACK_LINK_MESSAGES.invalid);
  return { link, message, file, client, owner, user };
}

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
        throw new HttpError(
          410,
          current?.usedAt ? FEEDBACK_LINK_MESSAGES.used : FEEDBACK_LINK_MESSAGES.expired,
        );
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
