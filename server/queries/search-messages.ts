import type { Visibility } from "../../shared/schemas/message-payload";
import type { Knex } from "knex";
import { liveClientSql } from "../models";
import type { Role } from "../../shared/schemas/user";

/** Which messages a search may look at: one owner's conversations, or one of them. */
export interface SearchScope {
  ownerId: string;
  /** Only this conversation. */
  clientId?: string;
  /** Only the conversations assigned to this staff member (a workspace's member, issue 26). */
  assigneeId?: string;
  /** Internal notes (issue 26) are searched too: the staff's searches only; a client's never. */
  withNotes?: boolean;
}

export interface SearchRequest {
  q: string;
  limit: number;
  /** Only messages older than this seq (the previous page's cursor). */
  before?: string;
}

/** A matching message with what presenting it needs. */
export interface SearchHit {
  id: string;
  seq: number;
  clientId: string;
  clientName: string;
  ownerName: string;
  ownerCompanyName: string | null;
  senderRole: Role;
  /** The writer's own name; null once their row is gone. */
  authorName: string | null;
  content: string | null;
  fileName: string | null;
  createdAt: Date;
  visibility: Visibility;
}

/**
 * The messages of `scope` whose text or file name matches `q` (search_query(): every word,
 * the last as a prefix, "quoted" phrases), newest first, one page at a time by seq.
 * Two branches, each the newest limit + 1 matches within the scope: messages by their text
 * (GIN index, or walking messages(seq) backwards for a common word, as the planner judges),
 * and files by their name, reaching their message through messages(file_id). Only then are
 * the page's rows joined with their names. hasMore: an older match exists.
 */
export async function searchMessages(
  db: Knex,
  scope: SearchScope,
  request: SearchRequest,
): Promise<{ hits: SearchHit[]; hasMore: boolean }> {
  // A deleted client's conversation (issue 28) is found by nobody until it is restored.
  const filters: string[] = ["c.owner_id = ?", liveClientSql("c")];
  const filterValues: string[] = [scope.ownerId];
  if (scope.clientId) {
    filters.push("m.client_id = ?");
    filterValues.push(scope.clientId);
  }
  if (scope.assigneeId) {
    filters.push(
      "exists (select 1 from client_assignees a where a.client_id = c.id and a.user_id = ?)",
    );
    filterValues.push(scope.assigneeId);
  }
  if (!scope.withNotes) filters.push("m.visibility = 'client'");
  if (request.before) {
    filters.push("m.seq < ?");
    filterValues.push(request.before);
  }
  const where = filters.join(" and ");
  // One conversation's files are found through files(client_id) whatever their number elsewhere.
  const fileWhere = scope.clientId ? `${where} and f.client_id = ?` : where;
  const fileValues = scope.clientId ? [...filterValues, scope.clientId] : filterValues;
  const take = request.limit + 1;
  const result: { rows: SearchHit[] } = await db.raw(
    `select m.id, m.seq, m.client_id as "clientId", c.name as "clientName",
            o.full_name as "ownerName", o.company_name as "ownerCompanyName",
            m.sender_role as "senderRole", a.full_name as "authorName", m.content,
            f.original_name as "fileName", m.created_at as "createdAt", m.visibility
       from (
         (select m.id, m.seq
            from messages m join clients c on c.id = m.client_id
           where ${where} and m.search_vector @@ search_query(?)
           order by m.seq desc limit ?)
         union
         (select m.id, m.seq
            from files f
            join messages m on m.file_id = f.id
            join clients c on c.id = m.client_id
           where ${fileWhere} and f.search_vector @@ search_query(?)
           order by m.seq desc limit ?)
       ) hits
       join messages m on m.id = hits.id
       join clients c on c.id = m.client_id
       join users o on o.id = c.owner_id
       left join users a on a.id = m.sender_id
       left join files f on f.id = m.file_id
      order by hits.seq desc
      limit ?`,
    [...filterValues, request.q, take, ...fileValues, request.q, take, take],
  );
  const rows = result.rows.map((row) => ({ ...row, seq: Number(row.seq) }));
  return { hits: rows.slice(0, request.limit), hasMore: rows.length > request.limit };
}
