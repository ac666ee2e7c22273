import { encodeExtended } from "content-disposition";
import { fileExtension } from "../../shared/files";
import type { StoredFile } from "../models";
import { hasPreview, PREVIEW_EXTENSION } from "../uploads/image-preview";
import { cleanFileName } from "../uploads/multipart";

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

/**
 * A stored file's disposition: media inline, except a conversation's images, which are shown
 * through their preview (their original is a download); everything else an attachment.
 */
export function fileDisposition(
  file: Pick<StoredFile, "originalName" | "storedName" | "clientId">,
  contentType: string,
): string {
  const inline = INLINE_TYPES.has(contentType) && !(file.clientId && hasPreview(file.storedName));
  return contentDisposition(
    inline ? "inline" : "attachment",
    downloadName(file.originalName, file.storedName),
  );
}

/** A preview is shown inline, named after the original (Holiday photo.jpg -> Holiday photo.webp). */
export function previewDisposition(originalName: string): string {
  const base = cleanFileName(originalName).replace(/\.[^.]*$/, "") || "preview";
  return contentDisposition("inline", `${base}.${PREVIEW_EXTENSION}`);
}

/**
 * RFC 6266: a plain ASCII `filename` with nothing that could end the quoted string or the
 * header, and the real name as RFC 8187 `filename*` (content-disposition's encoder). Both are
 * always sent, as clients have always had them: the package's create() would leave
 * `filename*` out for plain names and the quotes off names that are tokens.
 */
export function contentDisposition(type: "inline" | "attachment", filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  return `${type}; filename="${fallback}"; filename*=${encodeExtended(filename)}`;
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
