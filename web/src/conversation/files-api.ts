import { apiGet, apiPatch } from "../api/client";
import {
  isRetryable,
  newIdempotencyKey,
  postIdempotent,
  RETRY_DELAYS_MS,
  withRetries,
} from "../api/idempotent-post";
import {
  type StreamUpload,
  type UploadApprovalRule,
  type UploadTarget,
  uploadFields,
  uploadPath,
} from "../api/upload-transport";
import type { Message } from "./messages-query";

/** A file message, with its version fields (shared/schemas/messages.ts). */
export type FileMessage = Message;

/** One entry of GET /api/messages/{id}/versions. */
export type FileVersion = Message;

export type FeedbackDecision = "approved" | "needs_work";

const messagePath = (messageId: string) => `/api/messages/${encodeURIComponent(messageId)}`;

/**
 * Idempotency-Keys of uploads not known to have arrived, by destination and file: uploading the
 * same file to the same place again after the retries gave up reuses the key, so an upload
 * that did arrive (its answer lost) is not stored twice. Forgotten once an upload succeeds.
 */
const unconfirmedUploads = new Map<string, string>();

/**
 * How the bytes travel: the upload dialog always passes one, XMLHttpRequest (progress,
 * cancel) in the browser or the desktop app's stream from disk. Without a transfer (callers
 * outside the dialog) the form is POSTed with fetch.
 */
export interface UploadTransfer {
  upload: StreamUpload;
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

/** Uploads with the key of this file and destination, retried on network failure. */
async function postUpload(
  target: UploadTarget,
  file: File,
  transfer?: UploadTransfer,
): Promise<FileMessage> {
  const path = uploadPath(target);
  // "Requires feedback", the due date and who approves are part of what is asked: another
  // choice is another upload (key).
  const fields = JSON.stringify(uploadFields(target));
  const id = [path, fields, file.name, file.size, file.lastModified].join("\n");
  const key = unconfirmedUploads.get(id) ?? newIdempotencyKey();
  unconfirmedUploads.set(id, key);
  const send = transfer
    ? async () => {
        // Each attempt, and each wait before a retry, starts from nothing sent: the bar must
        // not stay at "Finishing..." (Cancel disabled) while the upload waits to be retried.
        transfer.onProgress?.(0, file.size);
        try {
          return (await transfer.upload(file, {
            target,
            idempotencyKey: key,
            onProgress: transfer.onProgress,
            signal: transfer.signal,
          })) as FileMessage;
        } catch (error) {
          transfer.onProgress?.(0, file.size);
          throw error;
        }
      }
    : () => postIdempotent<FileMessage>(path, uploadForm(target, file), key, []);
  const message = await withRetries(send, RETRY_DELAYS_MS, isRetryable, transfer?.signal);
  unconfirmedUploads.delete(id);
  return message;
}

/** The multipart form: `file`, and `requiresFeedback` and `approvalRule` when asked for. */
function uploadForm(target: UploadTarget, file: File): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(uploadFields(target))) form.append(name, value);
  form.append("file", file);
  return form;
}

/** POST /api/clients/{id}/upload: multipart `file`; `requiresFeedback` only from owners. */
export function uploadFile(
  clientId: string,
  file: File,
  requiresFeedback: boolean | undefined,
  transfer?: UploadTransfer,
  ask: ApprovalAsk = {},
): Promise<FileMessage> {
  const target: UploadTarget = {
    kind: "conversation",
    clientId,
    requiresFeedback: requiresFeedback === true,
    ...(requiresFeedback && ask.dueDate ? { dueDate: ask.dueDate } : {}),
    ...(requiresFeedback && ask.approvalRule ? { approvalRule: ask.approvalRule } : {}),
  };
  return postUpload(target, file, transfer);
}

/** What a file sent for approval asks besides the file (issue 27). */
export interface ApprovalAsk {
  /** YYYY-MM-DD. */
  dueDate?: string;
  approvalRule?: UploadApprovalRule;
}

/** POST /api/messages/{id}/versions: the owner answers a "Needs Work" file with a new one. */
export function uploadVersion(
  messageId: string,
  file: File,
  transfer?: UploadTransfer,
  /** Without a due date the thread keeps its own; without a rule, the previous version's. */
  ask: ApprovalAsk = {},
): Promise<FileMessage> {
  return postUpload(
    {
      kind: "version",
      messageId,
      ...(ask.dueDate ? { dueDate: ask.dueDate } : {}),
      ...(ask.approvalRule ? { approvalRule: ask.approvalRule } : {}),
    },
    file,
    transfer,
  );
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
