import { z } from "zod";
import { MESSAGE_MAX_LENGTH } from "../message-limits";
import { cleanMultiLineText, singleLineText } from "./text";
import { msg } from "../i18n/msg";

/** The most saved replies one workspace keeps (issue 28): a team's answers, not an archive. */
export const MAX_SAVED_REPLIES = 500;
export const SAVED_REPLY_TITLE_MAX = 100;
/** MESSAGE_MAX_LENGTH written out: a literal for the extractor (written-out-limits.test.ts). */
export const SAVED_REPLY_TEXT_TOO_LONG = msg(
  "Text is limited to 10,000 characters, as a message is",
);

const title = singleLineText({
  max: SAVED_REPLY_TITLE_MAX,
  requiredMessage: msg("Title is required"),
  tooLongMessage: msg("Title must be at most 100 characters"),
});
/** Multi-line like a message, trimmed: the text is inserted into the composer as it is kept. */
const text = z
  .string({ error: msg("Text is required") })
  .overwrite(cleanMultiLineText)
  .trim()
  .min(1, msg("Text is required"))
  .max(MESSAGE_MAX_LENGTH, SAVED_REPLY_TEXT_TOO_LONG);

/** POST /api/saved-replies. */
export const createSavedReplyInput = z.strictObject({ title, text });
export type CreateSavedReplyInput = z.infer<typeof createSavedReplyInput>;

/** PATCH /api/saved-replies/{id}: either field, or both. */
export const updateSavedReplyInput = z
  .strictObject({ title: title.optional(), text: text.optional() })
  .refine((input) => input.title !== undefined || input.text !== undefined, {
    message: msg("Nothing to change: send a title or a text"),
  });
export type UpdateSavedReplyInput = z.infer<typeof updateSavedReplyInput>;

/** POST /api/saved-replies/{id}/fill: the conversation whose variables fill the text. */
export const fillSavedReplyInput = z.strictObject({
  clientId: z.string({ error: msg("clientId is required") }).max(100),
});
export type FillSavedReplyInput = z.infer<typeof fillSavedReplyInput>;

/** A saved reply as the workspace's staff list it. */
export const savedReplySchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  /** As written, variables unfilled. */
  text: z.string(),
  /** Who wrote it; null once they have left the workspace's people for good (account deleted). */
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Whether the signed-in person may edit and delete it (its author, the owner and admins). */
  canChange: z.boolean(),
});
export type SavedReply = z.infer<typeof savedReplySchema>;
export const savedRepliesResponse = z.array(savedReplySchema);

/** The text filled in for one conversation, ready for the composer. */
export const filledSavedReplySchema = z.strictObject({ content: z.string() });
export type FilledSavedReply = z.infer<typeof filledSavedReplySchema>;
