import { CHAT_UPLOAD_TOO_LARGE } from "../../../shared/files";
import { ApiError, apiUrl } from "./client";
import { installedConnectivity } from "./installed-connectivity";
import { type StreamUpload, uploadFields, uploadPath } from "./upload-transport";

/**
 * The browser's upload with progress and cancel: the same multipart POST as fetch would send,
 * through XMLHttpRequest, whose upload events report the bytes sent (fetch has none). Fails as
 * fetch would: an ApiError with the server's message, a TypeError when nobody answered (so the
 * caller retries it with the same key), an AbortError when cancelled. Like apiRequest, each
 * outcome tells the connectivity model whether the server is there.
 */
export const xhrUpload: StreamUpload = (file, { target, idempotencyKey, onProgress, signal }) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException("The upload was cancelled", "AbortError"));
      return;
    }
    const form = new FormData();
    for (const [name, value] of Object.entries(uploadFields(target))) form.append(name, value);
    form.append("file", file);

    const connectivity = installedConnectivity();
    const sentAt = connectivity?.epoch;
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
    xhr.onerror = () => {
      connectivity?.reportUnreachable();
      reject(new TypeError("Failed to upload"));
    };
    xhr.ontimeout = () => {
      connectivity?.reportUnreachable();
      reject(new TypeError("The upload timed out"));
    };
    xhr.onabort = () => reject(new DOMException("The upload was cancelled", "AbortError"));
    xhr.onload = () => {
      // A gateway answering for the server (502-504) means it was not reached.
      if (xhr.status >= 502 && xhr.status <= 504) connectivity?.reportUnreachable();
      else connectivity?.reportReachable(sentAt);
      const json = /^application\/([\w.+-]+\+)?json\b/i.test(
        xhr.getResponseHeader("Content-Type") ?? "",
      );
      const body = parse(xhr.responseText, json);
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve(body);
        return;
      }
      const headers = new Headers();
      const retryAfter = xhr.getResponseHeader("Retry-After");
      if (retryAfter !== null) headers.set("Retry-After", retryAfter);
      reject(new ApiError(xhr.status, messageOf(body, json, xhr.status), body, headers));
    };
    xhr.send(form);
  });

function parse(text: string, json: boolean): unknown {
  if (!text || !json) return text || null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The server's {message} when it answered JSON. A proxy's HTML page is no message: left empty,
 * the dialog says "Upload failed"; a bare 413 (a proxy's size limit) gets the spec's own text.
 */
function messageOf(body: unknown, json: boolean, status: number): string {
  if (json && body && typeof body === "object" && "message" in body) {
    if (typeof body.message === "string") return body.message;
  }
  return status === 413 ? CHAT_UPLOAD_TOO_LARGE : "";
}
