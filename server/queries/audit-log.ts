import type { Knex } from "knex";

/** An audit_entries row as the log reads it. */
export interface AuditRow {
  id: string;
  actorName: string;
  action: string;
  subjectLabel: string;
  details: Record<string, unknown>;
  createdAt: Date;
}

export interface AuditPageRows {
  rows: AuditRow[];
  /** The last row's id when older entries follow, else null. */
  nextCursor: string | null;
}

/**
 * A page of the workspace's log, newest first (ties by id), after the entry `before` (a page's
 * cursor: that entry's id). A cursor of another workspace, or of an entry gone by age, finds
 * nothing: the row comparison with no row is never true.
 */
export async function listAuditEntries(
  db: Knex,
  workspaceId: string,
  page: { before?: string; limit: number },
): Promise<AuditPageRows> {
  const query = db("audit_entries")
    .select("id", "actorName", "action", "subjectLabel", "details", "createdAt")
    .where("workspaceId", workspaceId)
    .orderBy([
      { column: "createdAt", order: "desc" },
      { column: "id", order: "desc" },
    ])
    .limit(page.limit + 1);
  if (page.before)
    query.whereRaw(
      "(created_at, id) < (select created_at, id from audit_entries where id = ? and workspace_id = ?)",
      [page.before, workspaceId],
    );
  const rows: AuditRow[] = await query;
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  return { rows: shown, nextCursor: more ? shown[shown.length - 1]!.id : null };
}

/** Every entry of the workspace's log (400 days at most), newest first, read a page at a time. */
export async function listAllAuditEntries(db: Knex, workspaceId: string): Promise<AuditRow[]> {
  const all: AuditRow[] = [];
  let before: string | undefined;
  do {
    const page = await listAuditEntries(db, workspaceId, { before, limit: 1_000 });
    all.push(...page.rows);
    before = page.nextCursor ?? undefined;
  } while (before);
  return all;
}
