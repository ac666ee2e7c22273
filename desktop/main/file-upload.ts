import fsPromises, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
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
import type { UploadNet, UploadResponse } from "./upload-request";

/** Waits for `promise` at most `ms` (or until `stop`); the timer does not outlive it. */
async function withinMs(ms: number, promise: Promise<unknown>, stop: Promise<unknown>) {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([promise, elapsed, stop]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Main's end of a streamed upload: the file the user dropped or chose is checked on disk
 * (upload-file-check.ts) and, only if it passes, sent to the server as multipart/form-data
 * straight from disk through Electron's net (upload-request.ts): the envelope, the file in
 * 64 KB reads each waiting for the previous write, the closing boundary, chunked. Never more
 * than a read's worth of the file is in memory. The request uses the app session's cookies
 * (and keeps its Set-Cookie) and the server's own Origin, as the page's calls do through
 * server-bridge.ts.
 */
const id = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/, "not an id");
/** A due date (issue 27): the server checks the date itself; here only its shape. */
const dueDateShape = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "not a date");

/** How long an abort waits for a chunk being handed to net (see send()). */
const WRITE_SETTLE_MS = 2_000;

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
      dueDate: dueDateShape.optional(),
      approvalRule: z.enum(["any", "everyone"]).optional(),
    }),
    z.strictObject({
      kind: z.literal("version"),
      messageId: id,
      dueDate: dueDateShape.optional(),
      approvalRule: z.enum(["any", "everyone"]).optional(),
    }),
  ]),
  // As the server takes it (server/idempotency/idempotency-key.ts).
  idempotencyKey: z.string().regex(/^[\x21-\x7e]{1,255}$/, "not an idempotency key"),
});

export type UploadFileInput = z.infer<typeof uploadFileInput>;

export type ReadStreamOpener = (
  handle: FileHandle,
  options: { start: number; end: number; highWaterMark: number; autoClose: false },
) => Readable;

export interface FileUploaderOptions<Session = unknown> {
  /** The server's origin, e.g. "https://desk.example.com": the only place uploads go. */
  serverUrl: string;
  /** Electron's `net` and the app's session (its cookie jar): passed in by index.ts. */
  net: UploadNet<Session>;
  session: Session;
  fs?: FileSystemForUpload;
  readStream?: ReadStreamOpener;
  /** Progress is reported at most this often (and always at the end). */
  progressIntervalMs?: number;
  now?: () => number;
  /** How long a failed body waits for the server's early answer (see `send`). */
  earlyAnswerWaitMs?: number;
}

export const READ_CHUNK_BYTES = 64 * 1024;

function serverPath(target: DesktopUploadTarget): string {
  return target.kind === "conversation"
    ? `/api/clients/${encodeURIComponent(target.clientId)}/upload`
    : `/api/messages/${encodeURIComponent(target.messageId)}/versions`;
}

const defaultReadStream: ReadStreamOpener = (handle, options) => handle.createReadStream(options);

/** A problem on this side (the file), not the network's. */
class FileReadError extends Error {}

export function createFileUploader<Session>(options: FileUploaderOptions<Session>) {
  const fs = options.fs ?? fsPromises;
  const openReadStream = options.readStream ?? defaultReadStream;
  const interval = options.progressIntervalMs ?? 100;
  const now = options.now ?? Date.now;
  const earlyAnswerWaitMs = options.earlyAnswerWaitMs ?? 1500;
  const origin = new URL(options.serverUrl).origin;
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
    if (target.dueDate) fields.dueDate = target.dueDate;
    // Who must approve (issue 27): with a file sent for approval, or a new version.
    if ((target.kind === "version" || target.requiresFeedback) && target.approvalRule)
      fields.approvalRule = target.approvalRule;
    const envelope = multipartEnvelope({
      fields,
      fileField: "file",
      fileName: file.fileName,
      fileType: file.contentType,
    });
    const total = file.size;

    let lastReport = Number.NEGATIVE_INFINITY;
    const report = (sent: number) => {
      const at = now();
      if (sent < total && at - lastReport < interval) return;
      lastReport = at;
      onProgress({ uploadId: input.uploadId, sent, total });
    };

    // The path is built here from ids; the origin is the configured server's, always.
    const url = new URL(serverPath(target), origin);
    const outgoing = options.net.request({
      method: "POST",
      url: url.href,
      session: options.session,
      useSessionCookies: true,
      credentials: "include",
      origin,
      redirect: "error",
      bypassCustomProtocolHandlers: true,
    });
    // Content-Length is net's to set: chunked, the body streams without being buffered in
    // main (the server cuts at 10 MB while reading).
    outgoing.chunkedEncoding = true;
    outgoing.setHeader("Content-Type", envelope.contentType);
    outgoing.setHeader("Accept", "application/json");
    // A same-origin request of the server's own, as server-bridge.ts makes them.
    outgoing.setHeader("Origin", origin);
    outgoing.setHeader("Idempotency-Key", input.idempotencyKey);

    let response: UploadResponse | null = null;
    const answered = new Promise<UploadResponse>((resolve) => {
      outgoing.once("response", (incoming) => {
        response = incoming;
        resolve(incoming);
      });
    });
    const failed = new Promise<Error>((resolve) => outgoing.on("error", resolve));
    const cancelled = new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      signal.addEventListener("abort", () => resolve(), { once: true });
    });
    // Electron's net may reject a chunk still being handed over when the request is aborted,
    // on a stream nobody listens to: the abort waits for that write (2 s at most).
    let writeInFlight: Promise<unknown> = Promise.resolve();
    let aborting = false;
    const letGo = () => {
      if (aborting) return;
      aborting = true;
      const settled = new Promise((resolve) => setTimeout(resolve, WRITE_SETTLE_MS).unref());
      void Promise.race([writeInFlight, settled]).then(() => outgoing.abort());
    };
    signal.addEventListener("abort", letGo, { once: true });

    // Each write waits until net took the chunk (backpressure), or for whatever ends the body.
    const stopper = Promise.race([
      answered.then(() => "answered" as const),
      failed.then((error) => error),
      cancelled.then(() => "cancelled" as const),
    ]);
    const write = async (chunk: Buffer) => {
      const written = new Promise<true>((resolve, reject) =>
        outgoing.write(chunk, undefined, (error) => (error ? reject(error) : resolve(true))),
      );
      written.catch(() => {});
      writeInFlight = written.catch(() => {});
      const outcome = await Promise.race([written, stopper]);
      if (outcome !== true) throw outcome instanceof Error ? outcome : new Error(outcome);
    };

    const fileStream = openReadStream(file.handle, {
      start: 0,
      end: total - 1,
      highWaterMark: READ_CHUNK_BYTES,
      autoClose: false,
    });
    // Cancel also stops a read that is under way (a slow disk, a network share).
    const stopReading = () => fileStream.destroy();
    signal.addEventListener("abort", stopReading, { once: true });
    let bodyFailed = false;
    try {
      await write(envelope.preamble);
      let sent = 0;
      let writing = false;
      try {
        for await (const chunk of fileStream) {
          writing = true;
          await write(chunk as Buffer);
          writing = false;
          sent += (chunk as Buffer).length;
          report(sent);
        }
      } catch (error) {
        throw writing ? error : new FileReadError("The file could not be read");
      }
      if (sent !== total) throw new FileReadError("The file changed while it was being sent");
      await write(envelope.epilogue);
      outgoing.end();
    } catch (error) {
      bodyFailed = true;
      if (signal.aborted) return { outcome: "cancelled" };
      if (error instanceof FileReadError) {
        letGo();
        return { outcome: "refused", status: 400, message: error.message };
      }
    } finally {
      signal.removeEventListener("abort", stopReading);
      fileStream.destroy();
    }

    try {
      if (signal.aborted) return { outcome: "cancelled" };
      if (!response && !bodyFailed) await Promise.race([answered, failed, cancelled]);
      // The server may answer (401, 403, 413) before reading the body and close: the write
      // then fails first, but its answer is on its way. It is waited for, briefly.
      if (!response && !signal.aborted) await withinMs(earlyAnswerWaitMs, answered, cancelled);
      if (signal.aborted) return { outcome: "cancelled" };
      if (!response) return unreachable();
      return await readAnswer(response, signal);
    } catch {
      return signal.aborted ? { outcome: "cancelled" } : unreachable();
    } finally {
      signal.removeEventListener("abort", letGo);
      // The body never ended (an early answer, a failure): the request is let go.
      if (bodyFailed) letGo();
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
  };
}

export type FileUploader = ReturnType<typeof createFileUploader>;
