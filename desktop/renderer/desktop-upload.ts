import { ApiError } from "../../web/src/api/client";
import { newIdempotencyKey } from "../../web/src/api/idempotent-post";
import type { StreamedUpload } from "../../web/src/api/upload-transport";
import type { DesktopApi } from "../common/desktop-api";

/**
 * The desktop Platform's uploadFile: main streams the file from disk (the preload hands it
 * the File's path); here its progress is passed on, an aborted signal cancels it in main, and
 * its outcome becomes what a fetch upload would give the page (answer, ApiError, TypeError).
 */
export function createDesktopUpload(api: DesktopApi) {
  return async function uploadFile(file: File, upload: StreamedUpload): Promise<unknown> {
    const { signal, onProgress } = upload;
    signal?.throwIfAborted();
    const uploadId = newIdempotencyKey();
    const stopProgress = api.onUploadProgress((progress) => {
      if (progress.uploadId === uploadId) onProgress?.(progress.sent, progress.total);
    });
    const cancel = () => {
      api.cancelUpload(uploadId).catch(() => {
        // Already finished: its outcome answers.
      });
    };
    signal?.addEventListener("abort", cancel, { once: true });
    try {
      const result = await api.uploadFile(file, {
        uploadId,
        target: upload.target,
        idempotencyKey: upload.idempotencyKey,
      });
      switch (result.outcome) {
        case "uploaded":
          return result.body;
        case "failed": {
          const headers = new Headers();
          if (result.retryAfter !== null) headers.set("Retry-After", result.retryAfter);
          throw new ApiError(result.status, result.message, result.body, headers);
        }
        case "refused":
          throw new ApiError(result.status, result.message, { message: result.message });
        case "unreachable":
          // As fetch rejects when nobody answers: retried with the same key.
          throw new TypeError(result.message);
        case "cancelled":
          throw new DOMException("The upload was cancelled", "AbortError");
      }
    } finally {
      stopProgress();
      signal?.removeEventListener("abort", cancel);
    }
  };
}
