import { z } from "zod";
import { FEEDBACK_COMMENT_MAX_LENGTH, NEEDS_WORK_COMMENT_REQUIRED } from "../files";
import { multiLineText } from "./text";

export { FEEDBACK_COMMENT_MAX_LENGTH, NEEDS_WORK_COMMENT_REQUIRED };

/** Body of PATCH /api/messages/{messageId}/feedback (the client user of the conversation). */
export const feedbackInput = z
  .strictObject({
    feedbackStatus: z.enum(["approved", "needs_work"], {
      error: "feedbackStatus must be approved or needs_work",
    }),
    feedbackComment: multiLineText({
      label: "Comment",
      max: FEEDBACK_COMMENT_MAX_LENGTH,
      requiredMessage: "feedbackComment must be text",
      tooLongMessage: `Comments are limited to ${FEEDBACK_COMMENT_MAX_LENGTH.toLocaleString("en-US")} characters`,
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
