import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  CHAT_UPLOAD_MAX_BYTES,
  CHAT_UPLOAD_TOO_LARGE,
  COMMENT_TOO_LONG,
  FEEDBACK_COMMENT_MAX_LENGTH,
  formatFileSize,
} from "../../shared/files";
import { EDIT_WINDOW_MINUTES, MESSAGE_CHANGE_MESSAGES } from "../../shared/message-changes";
import { MESSAGE_MAX_LENGTH } from "../../shared/message-limits";
import {
  ANNOTATION_TEXT_MAX_LENGTH,
  annotationInput,
  annotationReplyInput,
  MAX_ANNOTATIONS_PER_VERSION,
} from "../../shared/schemas/annotations";
import { clientAssigneesInput, MAX_ASSIGNEES } from "../../shared/schemas/clients";
import { RETENTION_CHOICE_MESSAGE, RETENTION_CHOICES } from "../../shared/schemas/deleted-clients";
import { messageContentSchema } from "../../shared/schemas/messages";
import { SAVED_REPLY_TEXT_TOO_LONG } from "../../shared/schemas/saved-replies";
import { SEARCH_PAGE_MAX, SEARCH_QUERY_MAX_LENGTH, searchQuery } from "../../shared/schemas/search";
import { changeSeatsInput } from "../../shared/schemas/seats";
import { MAX_EXTRA_SEATS } from "../../shared/tiers";
import { ANNOTATION_MESSAGES } from "../commands/review-marks";
import { PREVIEW_MESSAGES } from "../uploads/image-preview";
import { IMAGE_MESSAGES, MAX_INPUT_PIXELS } from "../uploads/images";

/**
 * Texts with a limit in them are written out as literals (the extractor reads only literals):
 * each must still say what its constant is.
 */
const en = (value: number) => value.toLocaleString("en-US");
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe("texts that spell out a limit", () => {
  it("say the limit their constant holds", () => {
    expect(CHAT_UPLOAD_TOO_LARGE).toBe(
      `File size must be less than ${formatFileSize(CHAT_UPLOAD_MAX_BYTES)}`,
    );
    expect(COMMENT_TOO_LONG).toBe(
      `Comments are limited to ${en(FEEDBACK_COMMENT_MAX_LENGTH)} characters`,
    );
    expect(MESSAGE_CHANGE_MESSAGES.editTooLate).toBe(
      `Messages can be edited for ${EDIT_WINDOW_MINUTES} minutes after sending`,
    );
    expect(MESSAGE_CHANGE_MESSAGES.deleteTooLate).toBe(
      `Messages can be deleted for ${EDIT_WINDOW_MINUTES} minutes after sending`,
    );
    expect(SAVED_REPLY_TEXT_TOO_LONG).toBe(
      `Text is limited to ${en(MESSAGE_MAX_LENGTH)} characters, as a message is`,
    );
    expect(RETENTION_CHOICE_MESSAGE).toBe(`days must be one of ${RETENTION_CHOICES.join(", ")}`);
    expect(ANNOTATION_MESSAGES.tooMany).toBe(
      `A version can carry at most ${en(MAX_ANNOTATIONS_PER_VERSION)} marks`,
    );
    expect(IMAGE_MESSAGES.tooManyPixels).toBe(
      `Please select an image of at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels`,
    );
    expect(PREVIEW_MESSAGES.tooManyPixels).toContain(
      `at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels`,
    );
  });

  it("are what the schemas answer at their limits", () => {
    expect(firstMessage(messageContentSchema.safeParse("x".repeat(MESSAGE_MAX_LENGTH + 1)))).toBe(
      `Messages are limited to ${en(MESSAGE_MAX_LENGTH)} characters`,
    );
    const mark = { x: 0, y: 0, width: 0, height: 0, page: 1 };
    expect(
      firstMessage(
        annotationInput.safeParse({
          ...mark,
          comment: "x".repeat(ANNOTATION_TEXT_MAX_LENGTH + 1),
        }),
      ),
    ).toBe(`Comments are limited to ${en(ANNOTATION_TEXT_MAX_LENGTH)} characters`);
    expect(
      firstMessage(
        annotationReplyInput.safeParse({ content: "x".repeat(ANNOTATION_TEXT_MAX_LENGTH + 1) }),
      ),
    ).toBe(`Replys are limited to ${en(ANNOTATION_TEXT_MAX_LENGTH)} characters`);
    expect(
      firstMessage(searchQuery.safeParse({ q: "x".repeat(SEARCH_QUERY_MAX_LENGTH + 1) })),
    ).toBe(`Searches are limited to ${SEARCH_QUERY_MAX_LENGTH} characters`);
    expect(firstMessage(searchQuery.safeParse({ q: "a", limit: SEARCH_PAGE_MAX + 1 }))).toBe(
      `limit must be at most ${SEARCH_PAGE_MAX}`,
    );
    expect(firstMessage(changeSeatsInput.safeParse({ extra: MAX_EXTRA_SEATS + 1 }))).toBe(
      `At most ${MAX_EXTRA_SEATS} extra seats: write to us for more`,
    );
    const tooManyAssignees = Array.from({ length: MAX_ASSIGNEES + 1 }, () => randomUUID());
    expect(
      firstMessage(clientAssigneesInput.safeParse({ userIds: tooManyAssignees, leadUserId: null })),
    ).toBe(`A client can have at most ${MAX_ASSIGNEES} assignees`);
  });
});
