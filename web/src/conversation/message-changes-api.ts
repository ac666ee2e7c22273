import type { MessageEditsPayload } from "../../../shared/schemas/message-changes";
import { apiDelete, apiGet, apiPatch } from "../api/client";
import type { Message } from "./messages-query";

const messagePath = (id: string) => `/api/messages/${encodeURIComponent(id)}`;

/** PATCH /api/messages/{id}: the author's new text; the message as it now shows. */
export const editMessage = (id: string, content: string) =>
  apiPatch<Message>(messagePath(id), { content });

/** DELETE /api/messages/{id}: the author deletes it; the message as it now shows ("deleted"). */
export const deleteMessage = (id: string) => apiDelete<Message>(messagePath(id));

/** GET /api/messages/{id}/edits: its previous texts, oldest first (the workspace's staff). */
export const fetchMessageEdits = (id: string) =>
  apiGet<MessageEditsPayload>(`${messagePath(id)}/edits`);
