import fsPromises, { type FileHandle } from "node:fs/promises";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import type {
  DesktopUploadProgress,
  DesktopUploadResult,
  DesktopUploadTarget,
} from "../common/file-upload";
import { multipartEnvelope } from "./multipart-envelope";
import { readAnswer, unreachable } from "./upload-answer";
import {
  checkFileForUpload,
  type CheckedFile,
  type FileSystemForUpload,
} from "./upload-file-check";

/**
 * Main's end of a streamed upload: the file the user dropped or chose is checked on disk
 * (upload-file-check.ts) and, only if it passes, sent to the server as multipart/form-data
 * straight from disk: the envelope, the file in 64 KB reads, the closing boundary, with its
 * length known in advance. Never more than a read's worth of the file is in memory. The
 * request carries the session's cookie and the server's own Origin, as the page's calls do
 * through server-bridge.ts.
 */
const id = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, "not an id");

export const uploadIdInput = id;

export const uploadFileInput = z.strictObject({
  uploadId: id,
  filePath: z
    .string()
    .min(1)
    .max(4096)
    .refine((value) => path.isAbsolute(value), "not an absolute path"),
  target: z.discriminatedUnion("kind", [
    z.strictObject({
      kind: z.literal("conversation"),
      clientId: id,
      requiresFeedback: z.boolean(),
    }),
    z.strictObject({ kind: z.literal("version"), messageId: id }),
  ]),
  // As the server takes it (server/idempotency/idempotency-key.ts).
  idempotencyKey: z.string().regex(/^[\x21-\x7e]{1,255}$/, "not an idempotency key"),
});

export type UploadFileInput = z.infer<typeof uploadFileInput>;

export type ReadStreamOpener = (
  handle: FileHandle,
  options: { start: number; end: number; highWaterMark: number; autoClose: false },
) => Readable;

export interface FileUploaderOptions {
  /** The server's origin, e.g. "https://desk.example.com". */
  serverUrl: string;
  /** The Cookie header for the server (the session cookie from the app's jar), or null. */
  cookieHeader: () => Promise<string | null>;
  fs?: FileSystemForUpload;
  readStream?: ReadStreamOpener;
  request?: (url: URL, options: http.RequestOptions) => http.ClientRequest;
  /** Progress is reported at most this often (and always at the end). */
  progressIntervalMs?: number;
  now?: () => number;
}

export const READ_CHUNK_BYTES = 64 * 1024;

function serverPath(target: DesktopUploadTarget): string {
  return target.kind === "conversation"
    ? `/api/clients/${encodeURIComponent(target.clientId)}/upload`
    : `/api/messages/${encodeURIComponent(target.messageId)}/versions`;
}

const defaultRequest = (url: URL, options: http.RequestOptions) =>
  (url.protocol === "https:" ? https : http).request(url, options);

const defaultReadStream: ReadStreamOpener = (handle, options) => handle.createReadStream(options);

export function createFileUploader(options: FileUploaderOptions) {
  const fs = options.fs ?? fsPromises;
  const openReadStream = options.readStream ?? defaultReadStream;
  const request = options.request ?? defaultRequest;
  const interval = options.progressIntervalMs ?? 100;
  const now = options.now ?? Date.now;
  const running = new Map<string, AbortController>();

  async function send(
    file: CheckedFile,
    input: UploadFileInput,
    signal: AbortSignal,
    onProgress: (progress: DesktopUploadProgress) => void,
  ): Promise<DesktopUploadResult> {
    const { target } = input;
    const fields: Record<string, string> =
      target.kind === "conversation" && target.requiresFeedback ? { requiresFeedback: "true" } : {};
    const envelope = multipartEnvelope({
      fields,
      fileField: "file",
      fileName: file.fileName,
      fileType: file.contentType,
    });
    const total = file.size;
    const headers: Record<string, string> = {
      "Content-Type": envelope.contentType,
      "Content-Length": String(envelope.length(total)),
      Accept: "application/json",
      // A same-origin request of the server's own, as server-bridge.ts makes them.
      Origin: options.serverUrl,
      "Idempotency-Key": input.idempotencyKey,
    };
    const cookie = await options.cookieHeader();
    if (cookie) headers.Cookie = cookie;

    let lastReport = Number.NEGATIVE_INFINITY;
    const report = (sent: number) => {
      const at = now();
      if (sent < total && at - lastReport < interval) return;
      lastReport = at;
      onProgress({ uploadId: input.uploadId, sent, total });
    };

    const outgoing = request(new URL(serverPath(target), options.serverUrl), {
      method: "POST",
      headers,
      signal,
    });
    let response: IncomingMessage | null = null;
    const answered = new Promise<IncomingMessage>((resolve, reject) => {
      outgoing.once("response", (incoming) => {
        response = incoming;
        resolve(incoming);
      });
      outgoing.once("error", reject);
    });
    answered.catch(() => {});

    const fileStream = openReadStream(file.handle, {
      start: 0,
      end: total - 1,
      highWaterMark: READ_CHUNK_BYTES,
      autoClose: false,
    });
    async function* body() {
      yield envelope.preamble;
      let sent = 0;
      for await (const chunk of fileStream) {
        yield chunk as Buffer;
        // The request took the chunk (and waited for room when its buffer was full).
        sent += (chunk as Buffer).length;
        report(sent);
      }
      // Shorter than checked: the body would not match its Content-Length.
      if (sent !== total) throw new Error("The file changed while it was being sent");
      yield envelope.epilogue;
    }

    try {
      await pipeline(body, outgoing, { signal });
    } catch {
      if (signal.aborted) return { outcome: "cancelled" };
      // A server that answered early (and closed) is heard; otherwise nobody answered.
      if (!response) return unreachable();
    } finally {
      fileStream.destroy();
    }
    try {
      return await readAnswer(await answered, signal);
    } catch {
      return signal.aborted ? { outcome: "cancelled" } : unreachable();
    }
  }

  return {
    /** Checks the file, then streams it; progress goes to `onProgress`. */
    async upload(
      input: UploadFileInput,
      onProgress: (progress: DesktopUploadProgress) => void,
    ): Promise<DesktopUploadResult> {
      if (running.has(input.uploadId)) throw new Error("This upload is already running");
      const controller = new AbortController();
      running.set(input.uploadId, controller);
      try {
        const check = await checkFileForUpload(fs, input.filePath);
        if (!check.ok) return { outcome: "refused", status: check.status, message: check.message };
        try {
          if (controller.signal.aborted) return { outcome: "cancelled" };
          return await send(check.file, input, controller.signal, onProgress);
        } finally {
          await check.file.handle.close().catch(() => {});
        }
      } finally {
        running.delete(input.uploadId);
      }
    },
    /** Stops that upload: the request is aborted and the file closed. False if none runs. */
    cancel(uploadId: string): boolean {
      const controller = running.get(uploadId);
      controller?.abort();
      return controller !== undefined;
    },
    /** How many uploads are running. */
    get running(): number {
      return running.size;
    },
  };
}

export type FileUploader = ReturnType<typeof createFileUploader>;
