import type { SearchResponse, SearchResult } from "../../shared/schemas/search";
import { searchTerms } from "../../shared/search-text";
import type { SearchHit } from "../commands/search-messages";
import { searchSnippet } from "./search-snippet";

/** Every field of a search result that leaves the server, listed. */
export function presentSearchResult(hit: SearchHit, q: string): SearchResult {
  const kind = hit.fileName !== null ? "file" : "message";
  return {
    messageId: hit.id,
    clientId: hit.clientId,
    clientName: hit.clientName,
    seq: hit.seq,
    createdAt: new Date(hit.createdAt).toISOString(),
    senderRole: hit.senderRole,
    senderName: hit.senderRole === "owner" ? hit.ownerName : hit.clientName,
    kind,
    fileName: hit.fileName,
    snippet: searchSnippet((kind === "file" ? hit.fileName : hit.content) ?? "", searchTerms(q)),
  };
}

/** A page of results and the cursor of the next (older) one. */
export function presentSearchPage(hits: SearchHit[], hasMore: boolean, q: string): SearchResponse {
  return {
    results: hits.map((hit) => presentSearchResult(hit, q)),
    nextCursor: hasMore && hits.length > 0 ? String(hits.at(-1)!.seq) : null,
  };
}
