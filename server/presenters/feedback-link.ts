import { ownerNameForClient } from "../../shared/owner-name";
import type { FeedbackLinkPayload, FeedbackLinkState } from "../../shared/schemas/feedback-links";
import type { FoundFeedbackLink } from "../queries/find-feedback-link";

/** Used, decided (in the app or by another link), expired, or open: the first that holds. */
export function feedbackLinkState(found: FoundFeedbackLink, now: Date): FeedbackLinkState {
  if (found.link.usedAt) return "used";
  if (found.message.feedbackStatus !== "pending" || found.userDecided) return "decided";
  if (found.link.expiresAt.getTime() <= now.getTime()) return "expired";
  return "open";
}

/** What the confirmation page shows; every field listed (no addresses, no stored names). */
export function presentFeedbackLink(found: FoundFeedbackLink, now: Date): FeedbackLinkPayload {
  const { link, message, file, client, owner } = found;
  return {
    state: feedbackLinkState(found, now),
    decision: link.decision,
    fileName: file?.originalName ?? "(removed)",
    fileSize: file ? Number(file.sizeBytes) : null,
    clientId: client.id,
    messageId: message.id,
    // A page of the portal: the owner named as the portal names them.
    ownerName: ownerNameForClient(owner),
    feedbackStatus: message.feedbackStatus ?? "pending",
    feedbackComment: message.feedbackComment,
    expiresAt: link.expiresAt.toISOString(),
  };
}
