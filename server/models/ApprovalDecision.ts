import type { FeedbackStatus } from "../../shared/schemas/message-payload";
import { BaseModel } from "./BaseModel";

/**
 * One person's decision on a version sent for approval (issue 27, migration
 * 20261130030000_approvers): pending while they are asked (rule `everyone`), then approved or
 * needs_work, once.
 */
export class ApprovalDecision extends BaseModel {
  static override tableName = "approval_decisions";

  id!: string;
  messageId!: string;
  userId!: string;
  position!: number;
  status!: FeedbackStatus;
  comment!: string | null;
  decidedAt!: Date | null;
}
