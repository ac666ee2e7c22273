import { z } from "zod";
import { COMMENT_TOO_LONG, FEEDBACK_COMMENT_MAX_LENGTH } from "../files";
import { multiLineText } from "./text";
import { FEEDBACK_STATUSES } from "./messages";
import { msg } from "../i18n/msg";

/** What an email's button asks for: approve the file, or say it needs work (with a comment). */
export const FEEDBACK_LINK_DECISIONS = ["approve", "needs_work"] as const;
export type FeedbackLinkDecision = (typeof FEEDBACK_LINK_DECISIONS)[number];

/**
 * Where a link stands: open (it can be used), used (it was), expired (7 days passed), or
 * decided (the file was approved or sent back another way, e.g. in the app).
 */
export const FEEDBACK_LINK_STATES = ["open", "used", "expired", "decided"] as const;
export type FeedbackLinkState = (typeof FEEDBACK_LINK_STATES)[number];

/** GET /api/feedback-links/{token}: the confirmation page's content. Changes nothing. */
export const feedbackLinkSchema = z.strictObject({
  state: z.enum(FEEDBACK_LINK_STATES),
  decision: z.enum(FEEDBACK_LINK_DECISIONS),
  fileName: z.string(),
  fileSize: z.number().nullable(),
  /** The conversation: its page is /client/{clientId}; also names the owner's branding. */
  clientId: z.string(),
  messageId: z.string(),
  /** How the owner is named to the client, e.g. "Olivia Owner (Ortega Studio)". */
  ownerName: z.string(),
  /** The file's feedback now (pending until someone decides). */
  feedbackStatus: z.enum(FEEDBACK_STATUSES),
  feedbackComment: z.string().nullable(),
  expiresAt: z.string(),
});
export type FeedbackLinkPayload = z.infer<typeof feedbackLinkSchema>;

/** POST /api/feedback-links/{token}: the confirmation. Needs Work requires the comment. */
export const useFeedbackLinkInput = z.strictObject({
  comment: multiLineText({
    max: FEEDBACK_COMMENT_MAX_LENGTH,
    requiredMessage: msg("comment must be text"),
    tooLongMessage: COMMENT_TOO_LONG,
  })
    .nullable()
    .optional(),
});
export type UseFeedbackLinkInput = z.infer<typeof useFeedbackLinkInput>;

export const useFeedbackLinkResponse = z.strictObject({
  success: z.literal(true),
  message: z.string(),
  feedbackStatus: z.enum(["approved", "needs_work"]),
  clientId: z.string(),
  messageId: z.string(),
  /**
   * This browser is now signed in as the client (it was signed out, or already was them), so
   * the link into the conversation opens it. False when another account is signed in here.
   */
  signedIn: z.boolean(),
});
export type UseFeedbackLinkResponse = z.infer<typeof useFeedbackLinkResponse>;
