import type { SearchResponse } from "../../../shared/schemas/search";
import { apiGet } from "./client";

export type { SearchResponse, SearchResult, SnippetPart } from "../../../shared/schemas/search";

export interface SearchRequest {
  q: string;
  /** Only this conversation (a client searches their own either way). */
  clientId?: string;
  /** The previous page's nextCursor: older results. */
  before?: string;
  limit?: number;
}

/** GET /api/search: matching messages and file names, newest first. */
export function fetchSearchPage(request: SearchRequest): Promise<SearchResponse> {
  const params = new URLSearchParams({ q: request.q });
  if (request.clientId) params.set("clientId", request.clientId);
  if (request.before) params.set("before", request.before);
  if (request.limit) params.set("limit", String(request.limit));
  return apiGet<SearchResponse>(`/api/search?${params}`);
}
