import { type AuditEntry, describeAuditAction } from "../../shared/schemas/audit";
import type { AuditRow } from "../queries/audit-log";

export function presentAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    actorName: row.actorName,
    action: row.action,
    subjectLabel: row.subjectLabel,
    details: row.details,
  };
}

const CSV_HEADER = ["Time (UTC)", "Who", "What", "Action", "Subject", "Details"];

/**
 * One CSV cell: quoted when it holds a quote, comma or line break (quotes doubled), and a cell
 * a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage return) is
 * prefixed with ' so that it stays text.
 */
export function csvCell(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: string[]) => `${cells.map(csvCell).join(",")}\r\n`;

export const auditCsvHeader = () => csvLine(CSV_HEADER);

/** An entry as a line of the CSV export: the sentence the UI shows, and its parts. */
export function auditCsvLine(row: AuditRow): string {
  const entry = presentAuditEntry(row);
  return csvLine([
    entry.at,
    entry.actorName,
    `${entry.actorName} ${describeAuditAction(entry)}`,
    entry.action,
    entry.subjectLabel,
    Object.keys(entry.details).length ? JSON.stringify(entry.details) : "",
  ]);
}
