import type { Visibility } from "../../shared/schemas/message-payload";
import type { Role } from "../../shared/schemas/user";
import { BaseModel } from "./BaseModel";

/**
 * A message to send later (issue 28, migration 20261201020000_scheduled_messages): kept apart
 * from `messages` until it is sent, seen only by its author's side.
 */
export class ScheduledMessage extends BaseModel {
  static override tableName = "scheduled_messages";

  id!: string;
  clientId!: string;
  authorId!: string;
  authorRole!: Role;
  content!: string;
  visibility!: Visibility;
  sendAt!: Date;
  createdAt!: Date;
  updatedAt!: Date;
  /** Joined by the queries that present it: the author's full name. */
  authorName?: string;
}
