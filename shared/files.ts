import { msg } from "./i18n/msg";

/** File kinds derived from the extension (spec section 3). */
export type FileKind = "image" | "video" | "audio" | "pdf" | "text" | "document" | "unknown";

const KIND_BY_EXTENSION: Record<string, FileKind> = {};
const kinds: [FileKind, string[]][] = [
  ["image", ["jpg", "jpeg", "png", "gif", "webp", "svg", "bmp"]],
  ["video", ["mp4", "webm", "ogg", "mov", "avi"]],
  ["audio", ["mp3", "wav", "aac", "m4a"]],
  ["pdf", ["pdf"]],
  ["text", ["txt", "md", "json", "xml", "csv"]],
];
for (const [kind, extensions] of kinds) {
  for (const extension of extensions) KIND_BY_EXTENSION[extension] = kind;
}

/** Lower-cased text after the last dot, or "" when there is none. */
export function fileExtension(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot === -1 ? "" : fileName.slice(dot + 1).toLowerCase();
}

export function fileKind(fileName: string): FileKind {
  const extension = fileExtension(fileName);
  if (!extension) return "unknown";
  return KIND_BY_EXTENSION[extension] ?? "document";
}

/** "1.5 MB": Bytes, KB, MB or GB, 1024 per step, up to two decimals. */
export function formatFileSize(bytes: number): string {
  if (bytes === 0) return "0 Bytes";
  const units = ["Bytes", "KB", "MB", "GB"];
  const step = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), units.length - 1);
  const value = bytes / 1024 ** step;
  return `${Number.parseFloat(value.toFixed(2))} ${units[step]}`;
}

export const MB = 1024 * 1024;
export const IMAGE_UPLOAD_MAX_BYTES = 5 * MB;
export const CHAT_UPLOAD_MAX_BYTES = 10 * MB;
export const CHAT_UPLOAD_EXTENSIONS = ["pdf", "jpg", "jpeg", "png", "doc", "docx"];
/**
 * The spec's text for a conversation file over the limit (the server's 413, the app's checks):
 * CHAT_UPLOAD_MAX_BYTES written out, a literal for the extractor (written-out-limits.test.ts).
 */
export const CHAT_UPLOAD_TOO_LARGE = msg("File size must be less than 10 MB");

/** A feedback comment (Needs Work) is at most this long, in the app and on an email's page. */
export const FEEDBACK_COMMENT_MAX_LENGTH = 5_000;
/** FEEDBACK_COMMENT_MAX_LENGTH written out: a literal for the extractor (written-out-limits.test.ts). */
export const COMMENT_TOO_LONG = msg("Comments are limited to 5,000 characters");
export const NEEDS_WORK_COMMENT_REQUIRED = msg(
  "Please provide a comment when selecting 'Needs Work'",
);
