import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import busboy from "busboy";
import type { AppContext } from "../context";
import { badRequest, payloadTooLarge } from "../errors";
import { splitHead } from "./file-head";
import { msg } from "../../shared/i18n/msg";

const MB = 1024 * 1024;

/** Room for the multipart envelope (boundaries, part headers) on top of the file and fields. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * After a refusal the rest of the body is read and thrown away (never kept), so that a browser
 * still sending its upload sees our answer instead of a reset connection. Past this many bytes
 * the connection is cut instead.
 */
const DISCARD_LIMIT_BYTES = 64 * MB;

/** What file-type reads at most to recognise a format. */
export const DEFAULT_SNIFF_BYTES = 4100;

export interface SingleFileOptions<T> {
  /** The form field that must carry the file. */
  field: string;
  /** Largest accepted file; one byte more stops the upload with a 413 while it streams. */
  maxBytes: number;
  /** Plain text fields allowed next to the file; any other field is a 400. */
  fields?: readonly string[];
  /** Largest accepted text field (default 1 KB). */
  maxFieldBytes?: number;
  /** How many leading bytes `head` holds at least, unless the file is shorter (default 4100). */
  sniffBytes?: number;
  /** Answers shown to the user (errors catalog keys, marked with msg() where written). */
  messages?: { tooLarge?: string; missing?: string; tooMany?: string };
  /**
   * Undoes what `handle` did (e.g. deletes what it stored) when the request turns out bad
   * after the handler finished, e.g. a second file follows the first.
   */
  discard?: (value: T) => Promise<void>;
}

export interface IncomingFile {
  field: string;
  /** As the client named it: untrusted, shown only after cleanFileName. */
  filename: string;
  /** As the client declared it: untrusted, never used to decide the type. */
  declaredType: string;
  /** The first bytes of the file, for sniffing its type by content. */
  head: Buffer;
  /**
   * The whole file from its first byte (head included). Errors with the 413 HttpError when the
   * file grows past maxBytes, so a consumer never holds more than that.
   */
  stream: Readable;
}

export interface MultipartResult<T> {
  value: T;
  fields: Record<string, string>;
}

/**
 * Reads a multipart/form-data request that carries exactly one file in `options.field`, while
 * it streams: the file goes to `handle` as soon as its first bytes are in, and the size limit
 * cuts it (413) without the body ever being held whole. Resolves only once the whole request
 * was read and found well-formed (no second file, no unknown field); otherwise rejects with a
 * 4xx HttpError, or with what `handle` threw, after `handle` has settled.
 */
export async function receiveSingleFile<T>(
  ctx: AppContext,
  options: SingleFileOptions<T>,
  handle: (file: IncomingFile) => Promise<T>,
): Promise<MultipartResult<T>> {
  const req = ctx.req;
  const allowedFields = new Set(options.fields ?? []);
  const maxFieldBytes = options.maxFieldBytes ?? 1024;
  const sniffBytes = options.sniffBytes ?? DEFAULT_SNIFF_BYTES;
  // Defaults chosen outside the helpers: the extractor reads msg() texts, not nested calls.
  const tooLargeMessage = options.messages?.tooLarge ?? msg("The file is too large");
  const tooManyMessage = options.messages?.tooMany ?? msg("Please send only one file");
  const tooLarge = () => payloadTooLarge(tooLargeMessage);
  const missing = () =>
    options.messages?.missing
      ? badRequest(options.messages.missing)
      : badRequest('Please attach a file in the "{{field}}" field', { field: options.field });
  const maxBodyBytes = options.maxBytes + allowedFields.size * maxFieldBytes + ENVELOPE_BYTES;

  if (!ctx.is("multipart/form-data"))
    throw badRequest("Please send the file as multipart/form-data");
  const declaredLength = Number(ctx.get("Content-Length") || Number.NaN);
  if (declaredLength > maxBodyBytes) {
    discardRest(req);
    throw tooLarge();
  }

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: "utf8",
      limits: {
        files: 1,
        // busboy reports the limit once it holds exactly this many bytes: one over ours.
        fileSize: options.maxBytes + 1,
        // One more than allowed, so that the first stray field is seen and named.
        fields: allowedFields.size + 1,
        fieldSize: maxFieldBytes + 1,
      },
    });
  } catch {
    throw badRequest("Malformed multipart request");
  }

  let failure: unknown = null;
  let handling: Promise<T> | null = null;
  let truncated = false;
  const fields: Record<string, string> = {};

  const fail = (error: unknown) => {
    if (failure !== null) return;
    failure = error;
    req.unpipe(parser);
    // Ends the file stream with the same error, so that `handle` stops at once.
    parser.destroy(error instanceof Error ? error : new Error(String(error)));
    discardRest(req);
  };

  let received = 0;
  const countBytes = (chunk: Buffer) => {
    received += chunk.length;
    if (received > maxBodyBytes) fail(tooLarge());
  };
  const onAborted = () => {
    if (!req.complete) fail(badRequest("The upload was interrupted"));
  };

  const parsed = new Promise<void>((resolve) => parser.once("close", resolve));

  parser.on("file", (name, fileStream, info) => {
    // Errors of a file stream reach the caller through `fail`, never as an uncaught event.
    fileStream.on("error", ignore);
    if (failure !== null) {
      fileStream.resume();
      return;
    }
    if (name !== options.field) {
      fileStream.resume();
      fail(
        badRequest('Unexpected file field "{{name}}"; the file goes in "{{field}}"', {
          name,
          field: options.field,
        }),
      );
      return;
    }
    fileStream.once("limit", () => {
      truncated = true;
      // Deferred: busboy still touches the file stream right after emitting "limit".
      process.nextTick(() => fail(tooLarge()));
    });
    const run = async () => {
      const { head, stream } = await splitHead(fileStream, {
        headBytes: sniffBytes,
        maxBytes: options.maxBytes,
        tooLarge,
      });
      try {
        return await handle({
          field: name,
          filename: info.filename ?? "",
          declaredType: info.mimeType,
          head,
          stream,
        });
      } finally {
        // Whatever the handler left unread is dropped, so that parsing goes on to the end.
        stream.destroy();
        fileStream.resume();
      }
    };
    const started = run();
    started.catch(fail);
    handling = started;
  });
  parser.on("field", (name, value, info) => {
    if (name === options.field) fail(missing());
    else if (!allowedFields.has(name)) fail(badRequest('Unexpected field "{{name}}"', { name }));
    else if (info.valueTruncated) fail(badRequest('The field "{{name}}" is too long', { name }));
    else if (Object.hasOwn(fields, name))
      fail(badRequest('The field "{{name}}" was sent twice', { name }));
    else fields[name] = value;
  });
  parser.on("filesLimit", () => fail(badRequest(tooManyMessage)));
  parser.on("fieldsLimit", () => fail(badRequest("Too many fields")));
  parser.on("error", () => fail(badRequest("Malformed multipart request")));

  req.on("data", countBytes);
  req.once("aborted", onAborted);
  req.once("close", onAborted);
  req.pipe(parser);

  try {
    await parsed;
    const pending = handling as Promise<T> | null;
    const outcome = pending
      ? await pending.then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        )
      : null;
    if (failure === null && truncated) failure = tooLarge();
    if (failure === null && outcome === null) failure = missing();
    if (failure === null && outcome && !outcome.ok) failure = outcome.error;
    if (failure !== null || !outcome?.ok) {
      if (outcome?.ok && options.discard) await options.discard(outcome.value);
      throw failure;
    }
    return { value: outcome.value, fields };
  } finally {
    req.off("data", countBytes);
    req.off("aborted", onAborted);
    req.off("close", onAborted);
  }
}

function ignore() {}

/** Reads and throws away what is left of a refused request body, up to a bound. */
function discardRest(req: IncomingMessage) {
  if (req.complete || req.destroyed) return;
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_LIMIT_BYTES) req.socket.destroy();
  });
  req.resume();
}

// Control characters, and format characters such as right-to-left overrides that can make
// "gpj.exe" read as "exe.jpg".
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * A client-given file name made fit for display: no path, no control or direction characters,
 * at most `maxLength` characters with the extension kept. The name is never used on disk.
 */
export function cleanFileName(name: string, fallback = "file", maxLength = 200): string {
  const base = name.normalize("NFC").split(/[/\\]/).pop() ?? "";
  const cleaned = base.replace(UNSAFE_CHARACTERS, "").replace(/\s+/g, " ").trim();
  const characters = Array.from(
    cleaned.length > 0 && cleaned !== "." && cleaned !== ".." ? cleaned : fallback,
  );
  if (characters.length <= maxLength) return characters.join("");
  const dot = characters.lastIndexOf(".");
  const extension = dot > 0 && characters.length - dot <= 16 ? characters.slice(dot) : [];
  return (
    characters
      .slice(0, maxLength - extension.length)
      .join("")
      .trimEnd() + extension.join("")
  );
}
