/**
 * Streamed uploads between the page, the preload and main (desktop/main/file-upload.ts).
 * The page hands the preload a File the user dropped or chose; the preload sends main the
 * file's path (never from the page); main checks the file and streams it to the server.
 */

/** Where the file goes; main builds the server path from it (the page names no URL). */
export type DesktopUploadTarget =
  /** POST /api/clients/:clientId/upload */
  | {
      kind: "conversation";
      clientId: string;
      requiresFeedback: boolean;
      dueDate?: string;
      /** Who must approve (issue 27); only with requiresFeedback. */
      approvalRule?: "any" | "everyone";
    }
  /** POST /api/messages/:messageId/versions */
  | { kind: "version"; messageId: string; dueDate?: string; approvalRule?: "any" | "everyone" };

export interface DesktopUploadRequest {
  /** Chosen by the page for this attempt: progress events and cancelUpload name it. */
  uploadId: string;
  target: DesktopUploadTarget;
  /** The same key on every retry of one upload, so the server stores it once. */
  idempotencyKey: string;
}

export interface DesktopUploadProgress {
  uploadId: string;
  /** Bytes of the file handed to the network so far. */
  sent: number;
  total: number;
}

export type DesktopUploadResult =
  /** The server stored it: its JSON answer (the new file message). */
  | { outcome: "uploaded"; status: number; body: unknown }
  /** The server answered with an error (its {message}); Retry-After when it sent one. */
  | { outcome: "failed"; status: number; message: string; body: unknown; retryAfter: string | null }
  /** Refused by main's checks before any request was made (size, type, not a file). */
  | { outcome: "refused"; status: 400 | 413; message: string }
  /** No answer from the server (offline, connection cut): may be retried with the same key. */
  | { outcome: "unreachable"; message: string }
  /** Stopped by cancelUpload. */
  | { outcome: "cancelled" };
