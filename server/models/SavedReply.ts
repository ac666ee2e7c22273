import { BaseModel } from "./BaseModel";

/** A workspace's saved reply (issue 28, migration 20261201010000_saved_replies). */
export class SavedReply extends BaseModel {
  static override tableName = "saved_replies";

  id!: string;
  /** The workspace: its owner's user id. */
  workspaceId!: string;
  /** Who wrote it; null once their account is deleted. */
  createdBy!: string | null;
  title!: string;
  /** As written, variables unfilled. */
  text!: string;
  createdAt!: Date;
  updatedAt!: Date;
}
