import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { hashToken } from "../auth/sessions";
import type { DecisionLinks } from "../mail/notification-mails";
import { FeedbackLink } from "../models";

/** A link lives this long after its email was written. */
export const FEEDBACK_LINK_DAYS = 7;
const DAY_MS = 24 * 60 * 60_000;

export const feedbackLinkUrl = (appUrl: string, token: string) =>
  `${appUrl}/client/feedback/${token}`;

/**
 * An Approve and a Needs Work link for each of `messageIds` (the owner's files that wait for
 * `userId`'s decision), for one email. Every email gets fresh links; each works once, for
 * FEEDBACK_LINK_DAYS days.
 */
export async function issueFeedbackLinks(
  db: Knex,
  appUrl: string,
  now: Date,
  userId: string,
  messageIds: string[],
): Promise<Map<string, DecisionLinks>> {
  const links = new Map<string, DecisionLinks>();
  if (messageIds.length === 0) return links;
  const expiresAt = new Date(now.getTime() + FEEDBACK_LINK_DAYS * DAY_MS);
  const rows: Partial<FeedbackLink>[] = [];
  for (const messageId of messageIds) {
    const approve = randomBytes(32).toString("base64url");
    const needsWork = randomBytes(32).toString("base64url");
    rows.push(
      {
        tokenHash: hashToken(approve),
        messageId,
        userId,
        decision: "approve",
        expiresAt,
        createdAt: now,
      },
      {
        tokenHash: hashToken(needsWork),
        messageId,
        userId,
        decision: "needs_work",
        expiresAt,
        createdAt: now,
      },
    );
    links.set(messageId, {
      approveUrl: feedbackLinkUrl(appUrl, approve),
      needsWorkUrl: feedbackLinkUrl(appUrl, needsWork),
    });
  }
  await FeedbackLink.query(db).insert(rows);
  return links;
}

/** The hourly cleanup: links past their 7 days go (used or not). */
export async function deleteExpiredFeedbackLinks(db: Knex, now: Date): Promise<number> {
  return FeedbackLink.query(db).where("expiresAt", "<=", now).delete();
}
