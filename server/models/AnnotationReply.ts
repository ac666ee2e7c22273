import type { Role } from "../../shared/schemas/user";
import { BaseModel } from "./BaseModel";

/** A reply in a review mark's thread (issue 27). */
export class AnnotationReply extends BaseModel {
  static override tableName = "annotation_replies";

  id!: string;
  annotationId!: string;
  content!: string;
  authorId!: string | null;
  authorName!: string;
  authorSide!: Role;
  createdAt!: Date;
}
