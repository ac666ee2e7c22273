import { useQuery } from "@tanstack/react-query";
import type { FilledSavedReply, SavedReply } from "../../../shared/schemas/saved-replies";
import { apiDelete, apiGet, apiPatch, apiPost } from "./client";
import { queryKeys } from "./query-keys";

export type { SavedReply } from "../../../shared/schemas/saved-replies";

/** What a saved reply is made of, as the settings form sends it. */
export interface SavedReplyFields {
  title: string;
  text: string;
}

/** GET /api/saved-replies: the workspace's saved replies, by title (issue 28). */
export function useSavedReplies(enabled = true) {
  return useQuery({
    queryKey: queryKeys.savedReplies,
    queryFn: () => apiGet<SavedReply[]>("/api/saved-replies"),
    enabled,
  });
}

const replyPath = (id: string) => `/api/saved-replies/${encodeURIComponent(id)}`;

export const createSavedReply = (fields: SavedReplyFields) =>
  apiPost<SavedReply>("/api/saved-replies", fields);

export const updateSavedReply = (id: string, fields: SavedReplyFields) =>
  apiPatch<SavedReply>(replyPath(id), fields);

export const deleteSavedReply = (id: string) => apiDelete<null>(replyPath(id));

/** The reply's text with its variables filled in for one conversation. */
export async function fillSavedReply(id: string, clientId: string): Promise<string> {
  return (await apiPost<FilledSavedReply>(`${replyPath(id)}/fill`, { clientId })).content;
}
