/**
 * What the review viewer (issue 27, point 1) needs beyond the annotation calls of
 * annotations-api.ts: who is looking at which version, and the marks' numbers and kinds.
 * Types only from the shared schemas: zod stays out of the viewer's chunk.
 */
import type { AnnotationInput } from "../../../shared/schemas/annotations";
import type { Annotation } from "./annotations-api";

export type Mark = Annotation;
export type NewMark = AnnotationInput;

/** Which file version a viewer shows marks for, and who is looking. */
export interface ReviewTarget {
  clientId: string;
  /** The version's own message. */
  messageId: string;
  version: number;
  viewerRole: "owner" | "client";
  /** New marks only on the latest version while it is not approved (the server says 409). */
  canAdd: boolean;
}

/**
 * A mark's number as people say it: its place in the list the viewer sees, which the server
 * gives oldest first (the numbers the approval email uses too).
 */
export function numberMarks(marks: readonly Mark[]): Map<string, number> {
  return new Map(marks.map((mark, index) => [mark.id, index + 1]));
}

/** A mark with width and height 0 is a point (a pin); else a rectangle (a box). */
export const isPoint = (mark: Pick<NewMark, "width" | "height">) =>
  mark.width === 0 && mark.height === 0;
