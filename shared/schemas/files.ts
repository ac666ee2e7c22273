import { z } from "zod";
import {
  COMMENT_TOO_LONG,
  FEEDBACK_COMMENT_MAX_LENGTH,
  NEEDS_WORK_COMMENT_REQUIRED,
} from "../files";
import { APPROVAL_RULES } from "./message-payload";
import { multiLineText } from "./text";
import { msg } from "../i18n/msg";

export { FEEDBACK_COMMENT_MAX_LENGTH, NEEDS_WORK_COMMENT_REQUIRED };

/** Body of PATCH /api/messages/{messageId}/feedback (the client user of the conversation). */
export const feedbackInput = z
  .strictObject({
    feedbackStatus: z.enum(["approved", "needs_work"], {
      error: msg("feedbackStatus must be approved or needs_work"),
    }),
    feedbackComment: multiLineText({
      max: FEEDBACK_COMMENT_MAX_LENGTH,
      requiredMessage: msg("feedbackComment must be text"),
      tooLongMessage: COMMENT_TOO_LONG,
    })
      .nullable()
      .optional(),
  })
  .refine(
    (value) => value.feedbackStatus !== "needs_work" || (value.feedbackComment ?? "").trim() !== "",
    { message: NEEDS_WORK_COMMENT_REQUIRED, path: ["feedbackComment"] },
  );
export type FeedbackInput = z.infer<typeof feedbackInput>;

/** Multipart field `requiresFeedback` of an upload: "true" or "false" (owners only for true). */
export const requiresFeedbackField = z
  .enum(["true", "false"], { error: 'requiresFeedback must be "true" or "false"' })
  .optional()
  .transform((value) => value === "true");

/**
 * Multipart field `approvalRule` of an upload that requires feedback, or of a new version:
 * "any" or "everyone" (issue 27). Absent: "any" for a new file, the previous version's rule
 * for a new version.
 */
export const approvalRuleField = z
  .enum(APPROVAL_RULES, { error: 'approvalRule must be "any" or "everyone"' })
  .optional();
