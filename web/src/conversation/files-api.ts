import { apiGet, apiPatch } from "../api/client";
import { newIdempotencyKey, postIdempotent, withRetries } from "../api/idempotent-post";
import type { StreamUpload, UploadTarget } from "../api/upload-transport";
import type { Message } from "./messages-query";

/** A file message, with its version fields (shared/schemas/messages.ts). */
export type FileMessage = Message;

/** One entry of GET /api/messages/{id}/versions. */
export type FileVersion = Message;

export type FeedbackDecision = "approved" | "needs_work";

const clientPath = (clientId: string) => `/api/clients/${encodeURIComponent(clientId)}`;
const messagePath = (messageId: string) => `/api/messages/${encodeURIComponent(messageId)}`;

/**
 * Idempotency-Keys of uploads not known to have arrived, by destination and file: uploading the
 * same file to the same place again after the retries gave up reuses the key, so an upload
 * that did arrive (its answer lost) is not stored twice. Forgotten once an upload succeeds.
 */
const unconfirmedUploads = new Map<string, string>();

/**
 * How the bytes travel: by default the page POSTs the form with fetch; the desktop app's
 * platform streams the file from disk in its main process instead, with progress and cancel.
 */
export interface UploadTransfer {
  upload: StreamUpload;
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

/** Uploads with the key of this file and destination, retried on network failure. */
async function postUpload(
  path: string,
  file: File,
  form: FormData,
  target: UploadTarget,
  transfer?: UploadTransfer,
): Promise<FileMessage> {
  const id = [path, file.name, file.size, file.lastModified].join("\n");
  const key = unconfirmedUploads.get(id) ?? newIdempotencyKey();
  unconfirmedUploads.set(id, key);
  const message = transfer
    ? await withRetries(
        () =>
          transfer.upload(file, {
            target,
            idempotencyKey: key,
            onProgress: transfer.onProgress,
            signal: transfer.signal,
          }) as Promise<FileMessage>,
      )
    : await postIdempotent<FileMessage>(path, form, key);
  unconfirmedUploads.delete(id);
  return message;
}

/** POST /api/clients/{id}/upload: multipart `file`; `requiresFeedback` only from owners. */
export function uploadFile(
  clientId: string,
  file: File,
  requiresFeedback: boolean | undefined,
  transfer?: UploadTransfer,
): Promise<FileMessage> {
  const form = new FormData();
  if (requiresFeedback) form.append("requiresFeedback", "true");
  form.append("file", file);
  const target = {
    kind: "conversation",
    clientId,
    requiresFeedback: requiresFeedback === true,
  } as const;
  return postUpload(`${clientPath(clientId)}/upload`, file, form, target, transfer);
}

/** POST /api/messages/{id}/versions: the owner answers a "Needs Work" file with a new one. */
export function uploadVersion(
  messageId: string,
  file: File,
  transfer?: UploadTransfer,
): Promise<FileMessage> {
  const form = new FormData();
  form.append("file", file);
  const target = { kind: "version", messageId } as const;
  return postUpload(`${messagePath(messageId)}/versions`, file, form, target, transfer);
}

/** GET /api/messages/{id}/versions: the file's history, oldest first. */
export async function fetchVersions(messageId: string): Promise<FileVersion[]> {
  const versions = await apiGet<FileVersion[]>(`${messagePath(messageId)}/versions`);
  return [...versions].sort((a, b) => (a.versionNumber ?? 0) - (b.versionNumber ?? 0));
}

/** PATCH /api/messages/{id}/feedback: the client approves or sends back with a comment. */
export function submitFeedback(
  messageId: string,
  feedbackStatus: FeedbackDecision,
  feedbackComment: string,
): Promise<FileMessage> {
  return apiPatch<FileMessage>(`${messagePath(messageId)}/feedback`, {
    feedbackStatus,
    feedbackComment,
  });
}
