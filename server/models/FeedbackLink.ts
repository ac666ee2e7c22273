import { BaseModel } from "./BaseModel";

export type FeedbackLinkDecision = "approve" | "needs_work";

/** One Approve or Needs Work button of an email: single-use, 7 days (see its migration). */
export class FeedbackLink extends BaseModel {
  static override tableName = "feedback_links";

  id!: string;
  tokenHash!: string;
  messageId!: string;
  /** The client user who may decide. */
  userId!: string;
  decision!: FeedbackLinkDecision;
  expiresAt!: Date;
  usedAt!: Date | null;
  createdAt!: Date;
}
