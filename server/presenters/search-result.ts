import { ownerNameForClient } from "../../shared/owner-name";
import type { SearchResponse, SearchResult } from "../../shared/schemas/search";
import type { Role } from "../../shared/schemas/user";
import { searchTerms } from "../../shared/search-text";
import type { SearchHit } from "../queries/search-messages";
import { searchSnippet } from "./search-snippet";

/** The owner's own name for the owner; the portal's name of them for the client. */
function ownerName(hit: SearchHit, viewerRole: Role): string {
  return viewerRole === "client"
    ? ownerNameForClient({ fullName: hit.ownerName, companyName: hit.ownerCompanyName })
    : hit.ownerName;
}

/**
 * Every field of a search result that leaves the server, listed. As in the conversation
 * (presenters/message.ts): the owner's side names its own people, the client the agency.
 */
export function presentSearchResult(hit: SearchHit, q: string, viewerRole: Role): SearchResult {
  const kind = hit.fileName !== null ? "file" : "message";
  const sideName = hit.senderRole === "owner" ? ownerName(hit, viewerRole) : hit.clientName;
  const authorName = hit.authorName ?? sideName;
  return {
    messageId: hit.id,
    clientId: hit.clientId,
    clientName: hit.clientName,
    seq: hit.seq,
    createdAt: new Date(hit.createdAt).toISOString(),
    senderRole: hit.senderRole,
    senderName: hit.senderRole === "owner" && viewerRole === "owner" ? authorName : sideName,
    kind,
    fileName: hit.fileName,
    snippet: searchSnippet((kind === "file" ? hit.fileName : hit.content) ?? "", searchTerms(q)),
    authorName,
    visibility: hit.visibility,
  };
}

/** A page of results and the cursor of the next (older) one. */
export function presentSearchPage(
  hits: SearchHit[],
  hasMore: boolean,
  q: string,
  viewerRole: Role,
): SearchResponse {
  return {
    results: hits.map((hit) => presentSearchResult(hit, q, viewerRole)),
    nextCursor: hasMore && hits.length > 0 ? String(hits.at(-1)!.seq) : null,
  };
}
