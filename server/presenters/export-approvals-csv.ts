import type { MessagePayload } from "../../shared/schemas/messages";

/**
 * approvals.csv of an export (issue 28, point 4): one row per decision on a file version sent
 * for approval (each person's, with "Everyone"), and one row for a version nobody decided yet.
 * RFC 4180: comma-separated, CRLF line ends, a field quoted when it holds a comma, quote or
 * line break, quotes doubled. A cell that a spreadsheet would run as a formula (starting with
 * = + - @, a tab or a carriage return) gets a leading ' (OWASP's CSV injection advice).
 */

export const APPROVALS_CSV_HEADER = csvRow([
  "File",
  "Version",
  "Status",
  "Decided by",
  "Decided at",
  "Comment",
]);

const STATUS = { pending: "pending", approved: "approved", needs_work: "needs work" } as const;

/** The rows of one message (none unless it is a file sent for approval). */
export function approvalRows(message: MessagePayload): string {
  if (!message.requiresFeedback || !message.fileName) return "";
  const file = message.fileName;
  const version = String(message.versionNumber ?? 1);
  const decided = (message.approvals ?? []).filter((one) => one.status !== "pending");
  if (decided.length > 0)
    return decided
      .map((one) =>
        csvRow([
          file,
          version,
          STATUS[one.status],
          one.name,
          one.decidedAt ?? "",
          one.comment ?? "",
        ]),
      )
      .join("");
  const status = message.feedbackStatus ?? "pending";
  return csvRow([
    file,
    version,
    STATUS[status],
    status === "pending" ? "" : (message.feedbackByName ?? ""),
    status === "pending" ? "" : (message.feedbackAt ?? ""),
    message.feedbackComment ?? "",
  ]);
}

export function csvRow(cells: string[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

function csvCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}
