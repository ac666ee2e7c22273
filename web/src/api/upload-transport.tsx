import { createContext, type ReactNode, useContext } from "react";

/**
 * How an upload's bytes travel. The desktop app streams the file from disk in its main
 * process (Platform.uploadFile) and provides that here from its platform; elsewhere (the
 * browser, the client portal) none is provided and the upload dialog uses XMLHttpRequest
 * (xhr-upload.ts). Both report progress and can be cancelled.
 */

/** Who must approve a file sent for approval (issue 27): any one of the client's people, or all. */
export type UploadApprovalRule = "any" | "everyone";

/** Where an upload goes (POST /api/clients/:id/upload or /api/messages/:id/versions). */
export type UploadTarget =
  | {
      kind: "conversation";
      clientId: string;
      requiresFeedback: boolean;
      /** YYYY-MM-DD, with requiresFeedback (issue 27). */
      dueDate?: string;
      approvalRule?: UploadApprovalRule;
    }
  | { kind: "version"; messageId: string; dueDate?: string; approvalRule?: UploadApprovalRule };

/**
 * The multipart fields that go before the file: `requiresFeedback`, and for a file sent for
 * approval (or a new version) `dueDate` and `approvalRule` (issue 27).
 */
export function uploadFields(target: UploadTarget): Record<string, string> {
  const fields: Record<string, string> = {};
  if (target.kind === "conversation" && target.requiresFeedback) fields.requiresFeedback = "true";
  const asksApproval = target.kind === "version" || target.requiresFeedback;
  if (asksApproval && target.dueDate) fields.dueDate = target.dueDate;
  if (asksApproval && target.approvalRule) fields.approvalRule = target.approvalRule;
  return fields;
}

/** The server path of an upload to `target`. */
export function uploadPath(target: UploadTarget): string {
  return target.kind === "conversation"
    ? `/api/clients/${encodeURIComponent(target.clientId)}/upload`
    : `/api/messages/${encodeURIComponent(target.messageId)}/versions`;
}

export interface StreamedUpload {
  target: UploadTarget;
  idempotencyKey: string;
  onProgress?: (sent: number, total: number) => void;
  /** Aborting it cancels the upload (it then rejects with an "AbortError" DOMException). */
  signal?: AbortSignal;
}

/**
 * Resolves with the server's JSON; rejects with an ApiError (the server's or the app's
 * refusal), a TypeError (no answer: may be retried) or an AbortError.
 */
export type StreamUpload = (file: File, upload: StreamedUpload) => Promise<unknown>;

const UploadTransportContext = createContext<StreamUpload | null>(null);

export function UploadTransportProvider({
  streamUpload,
  children,
}: {
  streamUpload: StreamUpload | null;
  children: ReactNode;
}) {
  return (
    <UploadTransportContext.Provider value={streamUpload}>
      {children}
    </UploadTransportContext.Provider>
  );
}

/** The streamed upload of this app, or null where the dialog uploads with XMLHttpRequest. */
export function useStreamUpload(): StreamUpload | null {
  return useContext(UploadTransportContext);
}
