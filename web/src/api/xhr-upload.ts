import { ApiError, apiUrl } from "./client";
import { type StreamUpload, uploadPath } from "./upload-transport";

/**
 * The browser's upload with progress and cancel: the same multipart POST as fetch would send,
 * through XMLHttpRequest, whose upload events report the bytes sent (fetch has none). Fails as
 * fetch would: an ApiError with the server's message, a TypeError when nobody answered (so the
 * caller retries it with the same key), an AbortError when cancelled.
 */
export const xhrUpload: StreamUpload = (file, { target, idempotencyKey, onProgress, signal }) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException("The upload was cancelled", "AbortError"));
      return;
    }
    const form = new FormData();
    if (target.kind === "conversation" && target.requiresFeedback)
      form.append("requiresFeedback", "true");
    form.append("file", file);

    const xhr = new XMLHttpRequest();
    xhr.open("POST", apiUrl(uploadPath(target)));
    xhr.withCredentials = true;
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("Idempotency-Key", idempotencyKey);
    // The body is the file plus a little multipart envelope: shown as the file's own bytes.
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable || event.total === 0) return;
      onProgress?.(
        Math.min(file.size, Math.round((event.loaded / event.total) * file.size)),
        file.size,
      );
    };
    const cancel = () => xhr.abort();
    signal?.addEventListener("abort", cancel, { once: true });
    xhr.onloadend = () => signal?.removeEventListener("abort", cancel);
    xhr.onerror = () => reject(new TypeError("Failed to upload"));
    xhr.ontimeout = () => reject(new TypeError("The upload timed out"));
    xhr.onabort = () => reject(new DOMException("The upload was cancelled", "AbortError"));
    xhr.onload = () => {
      const body = parse(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body);
        return;
      }
      const headers = new Headers();
      const retryAfter = xhr.getResponseHeader("Retry-After");
      if (retryAfter !== null) headers.set("Retry-After", retryAfter);
      reject(new ApiError(xhr.status, messageOf(body, xhr.status), body, headers));
    };
    xhr.send(form);
  });

function parse(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function messageOf(body: unknown, status: number): string {
  if (body && typeof body === "object" && "message" in body && typeof body.message === "string")
    return body.message;
  if (typeof body === "string" && body.trim()) return body.trim();
  return String(status);
}
