import { Router } from "@koa/router";
import { fileExtension } from "../../../shared/files";
import type { AppContext } from "../../context";
import { notFound } from "../../errors";
import { StoredFile } from "../../models";
import { filesPolicy, loadFileAccess } from "../../policies/files";
import { assertSafeName, previewKeyOf } from "../../storage/storage";
import {
  ensurePreview,
  hasPreview,
  PREVIEW_CONTENT_TYPE,
  PREVIEW_EXTENSION,
  PreviewRefusal,
} from "../../uploads/image-preview";
import { cleanFileName } from "../../uploads/multipart";
import type { AreaRouter } from "../area-router";

const router: AreaRouter = new Router({ prefix: "/api/download" });

/** Types a browser may show in its own tab; everything else is only ever downloaded. */
const INLINE_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/gif",
  "application/pdf",
  "video/mp4",
  "video/webm",
  "video/ogg",
  "audio/mpeg",
  "audio/wav",
  "audio/x-wav",
  "audio/wave",
  "audio/ogg",
]);

const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

function isSafeName(name: string): boolean {
  try {
    assertSafeName(name);
    return true;
  } catch {
    return false;
  }
}

/** The stored file `name` if the signed-in caller may fetch it; 404 for anyone else. */
async function authorizedFile(ctx: AppContext, name: string): Promise<StoredFile> {
  const actor = ctx.state.user;
  if (!actor || !isSafeName(name)) throw notFound();
  const file = await StoredFile.query().findOne({ storedName: name });
  if (!file) throw notFound();
  filesPolicy.authorize(actor, "download", await loadFileAccess(actor, file));
  return file;
}

/**
 * GET (and HEAD) /api/download/:filename: a stored file, to those who may see it (the
 * policy); 404 for everyone else, signed out included, so that existence is not revealed.
 * Served with nosniff and a sandboxing CSP; only media types are shown inline, and of a
 * conversation's images only the preview (below): their original is an attachment.
 */
router.get("/:filename", async (ctx) => {
  const name = ctx.params.filename ?? "";
  const file = await authorizedFile(ctx, name);
  const stored = await ctx.services.storage.stat(name);
  if (!stored) {
    ctx.services.logger.warn({ storedName: name }, "file row without stored bytes");
    throw notFound();
  }
  const size = stored.size;
  // Stored names are random and never reused, so the name identifies the bytes for good.
  const etag = `"${name}"`;

  const contentType = MIME_TYPE.test(file.contentType)
    ? file.contentType
    : "application/octet-stream";
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Content-Security-Policy", "sandbox");
  ctx.set("Cache-Control", "private, max-age=3600");
  ctx.set("ETag", etag);
  ctx.set("Accept-Ranges", "bytes");

  if (matchesEtag(ctx.get("If-None-Match"), etag)) {
    ctx.status = 304;
    return;
  }

  const range = ctx.method === "GET" ? requestedRange(ctx, etag, size) : null;
  if (range === "unsatisfiable") {
    ctx.status = 416;
    ctx.set("Content-Range", `bytes */${size}`);
    ctx.body = { message: "Requested range not satisfiable" };
    return;
  }

  if (ctx.method === "GET") {
    ctx.body = await ctx.services.storage.get(name, range ?? undefined);
  }
  ctx.status = range ? 206 : 200;
  ctx.set("Content-Type", contentType);
  ctx.set(
    "Content-Disposition",
    contentDisposition(
      // A conversation's images are shown through their preview; the original is a download.
      INLINE_TYPES.has(contentType) && !(file.clientId && hasPreview(name))
        ? "inline"
        : "attachment",
      downloadName(file.originalName, name),
    ),
  );
  if (range) ctx.set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
  ctx.length = range ? range.end - range.start + 1 : size;
});

/**
 * GET (and HEAD) /api/download/:filename/preview: a conversation image's preview (WebP, at
 * most 1600 px a side), to those who may fetch the original; 404 for everyone else and for
 * files without a preview. Made on first request for files uploaded before previews existed,
 * then stored and reused. Stored names are never reused, so it is cached for good.
 */
router.get("/:filename/preview", async (ctx) => {
  const name = ctx.params.filename ?? "";
  const file = await authorizedFile(ctx, name);
  if (!file.clientId || !hasPreview(name)) throw notFound("This file has no preview");
  if (!(await ctx.services.storage.stat(name))) {
    ctx.services.logger.warn({ storedName: name }, "file row without stored bytes");
    throw notFound();
  }
  const etag = `"${previewKeyOf(name)}"`;
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Content-Security-Policy", "sandbox");
  ctx.set("Cache-Control", "private, max-age=31536000, immutable");
  ctx.set("ETag", etag);
  if (matchesEtag(ctx.get("If-None-Match"), etag)) {
    ctx.status = 304;
    return;
  }
  let preview: { size: number };
  try {
    preview = await ensurePreview(ctx.services.storage, name);
  } catch (error) {
    if (!(error instanceof PreviewRefusal)) throw error;
    // An image kept before the pixel limit existed: the conversation shows its file card.
    ctx.set("Cache-Control", "no-store");
    throw notFound("This file has no preview");
  }
  if (ctx.method === "GET") ctx.body = await ctx.services.storage.get(previewKeyOf(name));
  ctx.status = 200;
  ctx.set("Content-Type", PREVIEW_CONTENT_TYPE);
  const base = cleanFileName(file.originalName).replace(/\.[^.]*$/, "") || "preview";
  ctx.set("Content-Disposition", contentDisposition("inline", `${base}.${PREVIEW_EXTENSION}`));
  ctx.length = preview.size;
});

function matchesEtag(header: string, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value === etag || value === `W/${etag}`;
  });
}

export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/** The Range of a GET, unless If-Range names another version (then the whole file). */
function requestedRange(
  ctx: AppContext,
  etag: string,
  size: number,
): ByteRange | "unsatisfiable" | null {
  const header = ctx.get("Range");
  if (!header) return null;
  const ifRange = ctx.get("If-Range");
  if (ifRange && ifRange !== etag) return null;
  return parseRange(header, size);
}

/**
 * One `bytes=a-b`, `bytes=a-` or `bytes=-n` range. Anything else (other units, several
 * ranges, a malformed header) is ignored and the whole file is served, as RFC 9110 allows.
 */
export function parseRange(header: string, size: number): ByteRange | "unsatisfiable" | null {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  let start: number;
  let end: number;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(size - suffix, 0);
    end = size - 1;
  } else {
    start = Number(first);
    if (last !== "" && Number(last) < start) return null;
    end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  }
  if (size === 0 || start >= size) return "unsatisfiable";
  return { start, end };
}

/** The display name, with the extension of what is actually stored (photo.jpg -> photo.webp). */
function downloadName(originalName: string, storedName: string): string {
  const name = cleanFileName(originalName);
  const stored = fileExtension(storedName);
  const given = fileExtension(name);
  if (!stored || given === stored) return name;
  const base = given ? name.slice(0, -(given.length + 1)) : name;
  return `${base || "file"}.${stored}`;
}

/**
 * RFC 6266 with an RFC 5987 `filename*` for the real name, and a plain ASCII fallback with
 * nothing that could end the quoted string or the header.
 */
export function contentDisposition(type: "inline" | "attachment", filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export default router;
