import { Router } from "@koa/router";
import type { AppContext } from "../../context";
import { requestedRange } from "../../downloads/byte-range";
import { fileDisposition, previewDisposition } from "../../downloads/content-disposition";
import { isNotModified } from "../../downloads/not-modified";
import { notFound } from "../../errors";
import { StoredFile } from "../../models";
import { filesPolicy, loadFileAccess } from "../../policies/files";
import { assertSafeName, previewKeyOf } from "../../storage/storage";
import {
  ensurePreview,
  hasPreview,
  PREVIEW_CONTENT_TYPE,
  PreviewRefusal,
} from "../../uploads/image-preview";
import type { AreaRouter } from "../area-router";
import { msg } from "../../../shared/i18n/msg";
import { readable } from "../../i18n/readable";

// The route's tests call these directly.
export { parseRange } from "../../downloads/byte-range";
export { contentDisposition } from "../../downloads/content-disposition";

const router: AreaRouter = new Router({ prefix: "/api/download" });

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
  const { db } = ctx.services;
  const file = await StoredFile.query(db).findOne({ storedName: name });
  if (!file) throw notFound();
  filesPolicy.authorize(actor, "download", await loadFileAccess(ctx.services, actor, file));
  return file;
}

/**
 * GET (and HEAD) /api/download/:filename: a stored file, to those who may see it (the
 * policy); 404 for everyone else, signed out included, so that existence is not revealed.
 * Served with nosniff and a sandboxing CSP; only media types are shown inline, and of a
 * conversation's images only the preview (below): their original is an attachment.
 */
router.get("/:filename", async (ctx) => {
  // Users' files go out as stored, with their length and byte ranges: most are compressed
  // already (images, PDFs, archives), and a compressed body would lose Content-Length.
  ctx.compress = false;
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

  if (isNotModified(ctx.request, etag)) {
    ctx.status = 304;
    return;
  }

  const range = ctx.method === "GET" ? requestedRange(ctx.request, etag, size) : null;
  if (range === "unsatisfiable") {
    ctx.status = 416;
    ctx.set("Content-Range", `bytes */${size}`);
    ctx.body = { message: readable(ctx, msg("Requested range not satisfiable")) };
    return;
  }

  if (ctx.method === "GET") {
    ctx.body = await ctx.services.storage.get(name, range ?? undefined);
  }
  ctx.status = range ? 206 : 200;
  ctx.set("Content-Type", contentType);
  ctx.set("Content-Disposition", fileDisposition(file, contentType));
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
  ctx.compress = false; // WebP: compressed already
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
  if (isNotModified(ctx.request, etag)) {
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
  ctx.set("Content-Disposition", previewDisposition(file.originalName));
  ctx.length = preview.size;
});

export default router;
