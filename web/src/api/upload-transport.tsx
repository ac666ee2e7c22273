import { createContext, type ReactNode, useContext } from "react";

/**
 * How an upload's bytes travel. The desktop app streams the file from disk in its main
 * process (Platform.uploadFile) and provides that here from its platform; elsewhere (the
 * browser, the client portal) none is provided and the upload dialog uses XMLHttpRequest
 * (xhr-upload.ts). Both report progress and can be cancelled.
 */

/** Where an upload goes (POST /api/clients/:id/upload or /api/messages/:id/versions). */
export type UploadTarget =
  | { kind: "conversation"; clientId: string; requiresFeedback: boolean }
  | { kind: "version"; messageId: string };

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
