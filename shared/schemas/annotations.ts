import { z } from "zod";
import { VISIBILITIES } from "./message-payload";
import { multiLineText } from "./text";
import { msg } from "../i18n/msg";

/** A mark's comment, and a reply in its thread. */
export const ANNOTATION_TEXT_MAX_LENGTH = 2_000;
/** The most marks one file version can carry (a 50-page proof with 200 marks is ordinary). */
export const MAX_ANNOTATIONS_PER_VERSION = 1_000;

/** `message`: "<field> must be a number from 0 to 1", written out per field for the extractor. */
const fraction = (message: string) => z.number({ error: message }).min(0, message).max(1, message);

/** Each message written out (ANNOTATION_TEXT_MAX_LENGTH in written-out-limits.test.ts). */
const annotationText = (messages: { empty: string; tooLong: string }) =>
  multiLineText({
    max: ANNOTATION_TEXT_MAX_LENGTH,
    requiredMessage: messages.empty,
    tooLongMessage: messages.tooLong,
  }).refine((value) => value.trim().length > 0, messages.empty);

/**
 * POST /api/messages/{messageId}/versions/{version}/annotations: a mark on one version of a file
 * sent for approval. Coordinates are fractions of the page (PDF) or image, so a mark holds at
 * every zoom and screen; `page` counts from 1 (1 for an image); width and height 0 make a point.
 * `internal`: a mark only the workspace's staff see (staff only).
 */
export const annotationInput = z
  .strictObject({
    page: z
      .number({ error: msg("page must be a whole number from 1") })
      .int(msg("page must be a whole number from 1"))
      .min(1, msg("page must be a whole number from 1"))
      .max(100_000, msg("page must be a whole number from 1")),
    x: fraction(msg("x must be a number from 0 to 1")),
    y: fraction(msg("y must be a number from 0 to 1")),
    width: fraction(msg("width must be a number from 0 to 1")),
    height: fraction(msg("height must be a number from 0 to 1")),
    comment: annotationText({
      empty: msg("Comment cannot be empty"),
      tooLong: msg("Comments are limited to 2,000 characters"),
    }),
    visibility: z
      .enum(VISIBILITIES, { error: msg("Visibility must be client or internal") })
      .optional(),
  })
  .refine((mark) => mark.x + mark.width <= 1.000001 && mark.y + mark.height <= 1.000001, {
    message: msg("The mark must lie within the page"),
  });
export type AnnotationInput = z.infer<typeof annotationInput>;

/** POST /api/annotations/{id}/replies */
export const annotationReplyInput = z.strictObject({
  content: annotationText({
    empty: msg("Reply cannot be empty"),
    tooLong: msg("Replys are limited to 2,000 characters"),
  }),
});
export type AnnotationReplyInput = z.infer<typeof annotationReplyInput>;

/** PATCH /api/annotations/{id}: resolve or reopen. */
export const annotationPatchInput = z.strictObject({
  resolved: z.boolean({ error: msg("resolved must be true or false") }),
});
export type AnnotationPatchInput = z.infer<typeof annotationPatchInput>;

/** Who wrote a mark or a reply, by their own name, and on which side of the conversation. */
export const annotationAuthorSchema = z.strictObject({
  id: z.string().nullable(),
  name: z.string(),
  side: z.enum(["owner", "client"]),
});
export type AnnotationAuthor = z.infer<typeof annotationAuthorSchema>;

export const annotationReplySchema = z.strictObject({
  id: z.string(),
  content: z.string(),
  author: annotationAuthorSchema,
  createdAt: z.string(),
});
export type AnnotationReplyPayload = z.infer<typeof annotationReplySchema>;

/** A mark as the API presents it (the list, the POST's answer, and after a reply or PATCH). */
export const annotationSchema = z.strictObject({
  id: z.string(),
  /** The file version's message, and its number in the file's thread. */
  messageId: z.string(),
  version: z.number(),
  page: z.number(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  comment: z.string(),
  author: annotationAuthorSchema,
  replies: z.array(annotationReplySchema),
  resolved: z.boolean(),
  resolvedAt: z.string().nullable(),
  resolvedByName: z.string().nullable(),
  visibility: z.enum(VISIBILITIES),
  /**
   * A mark carried over from the previous version, still open when this one was uploaded
   * ("check these"): the id of that earlier mark. Null for a mark made on this version.
   */
  carriedFromId: z.string().nullable(),
  createdAt: z.string(),
});
export type AnnotationPayload = z.infer<typeof annotationSchema>;
