import { apiPatch } from "../api/client";
import type { FileMessage } from "./files-api";

/** PATCH /api/messages/{id}/due-date: the staff set (YYYY-MM-DD) or clear (null) it. */
export function changeDueDate(messageId: string, dueDate: string | null): Promise<FileMessage> {
  return apiPatch<FileMessage>(`/api/messages/${encodeURIComponent(messageId)}/due-date`, {
    dueDate,
  });
}
