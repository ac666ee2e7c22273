import type { ApprovalPayload, MessagePayload } from "../../shared/schemas/messages";
import type { Message } from "../models";

/**
 * Who must approve a file sent for approval and each person's decision (issue 27); nothing
 * for any other message.
 */
export function presentApprovals(
  message: Message,
): Pick<MessagePayload, "approvalRule" | "approvals"> {
  if (!message.requiresFeedback || !message.fileId) return {};
  return {
    approvalRule: message.approvalRule ?? "any",
    approvals: (message.approvals ?? []).map(
      (row): ApprovalPayload => ({
        userId: row.userId,
        name: row.name,
        status: row.status,
        comment: row.comment ?? null,
        decidedAt: row.decidedAt ? new Date(row.decidedAt).toISOString() : null,
      }),
    ),
  };
}
