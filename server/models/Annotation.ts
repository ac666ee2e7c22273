import type { Visibility } from "../../shared/schemas/message-payload";
import type { Role } from "../../shared/schemas/user";
import { BaseModel } from "./BaseModel";

/**
 * A review mark (issue 27, migration 20261130010000_annotations): a point (width and height 0)
 * or a rectangle on page `page` of the file version that is message `messageId`, as fractions
 * of that page or image, with a comment.
 */
export class Annotation extends BaseModel {
  static override tableName = "annotations";

  id!: string;
  clientId!: string;
  messageId!: string;
  page!: number;
  x!: number;
  y!: number;
  width!: number;
  height!: number;
  comment!: string;
  authorId!: string | null;
  /** The author's name when they wrote it (shown once they are gone). */
  authorName!: string;
  authorSide!: Role;
  visibility!: Visibility;
  resolvedAt!: Date | null;
  resolvedBy!: string | null;
  resolvedByName!: string | null;
  /** The earlier version's open mark this one was copied from ("check these"). */
  carriedFromId!: string | null;
  createdAt!: Date;
}
