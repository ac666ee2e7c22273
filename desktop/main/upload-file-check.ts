import type { FileHandle } from "node:fs/promises";
import path from "node:path";
import {
  CONVERSATION_CONTENT_TYPES,
  CONVERSATION_SNIFF_BYTES,
  conversationFileProblem,
  FILE_MESSAGES,
} from "../../shared/conversation-file-content";
import { CHAT_UPLOAD_EXTENSIONS, CHAT_UPLOAD_MAX_BYTES, fileExtension } from "../../shared/files";

/**
 * The checks of a file on disk before main uploads it, with the server's own rules
 * (shared/conversation-file-content.ts) and texts: a regular file, at most 10 MB, an accepted
 * extension, not empty, and first bytes that match the extension. Only the first 64 KB are
 * read; the file is kept open so that what is sent is the file that was checked.
 */
export interface FileSystemForUpload {
  lstat(filePath: string): Promise<{ isFile(): boolean; size: number }>;
  open(filePath: string, flags: "r"): Promise<FileHandle>;
}

export interface CheckedFile {
  handle: FileHandle;
  fileName: string;
  contentType: string;
  size: number;
}

export type FileCheck =
  | { ok: true; file: CheckedFile }
  | { ok: false; status: 400 | 413; message: string };

const NOT_A_FILE = "Only a file can be uploaded, not a folder or a link";

const refuse = (message: string, status: 400 | 413 = 400): FileCheck => ({
  ok: false,
  status,
  message,
});

export async function checkFileForUpload(
  fs: FileSystemForUpload,
  filePath: string,
): Promise<FileCheck> {
  const fileName = path.basename(filePath);
  const extension = fileExtension(fileName);
  if (!CHAT_UPLOAD_EXTENSIONS.includes(extension)) return refuse(FILE_MESSAGES.notSupported);
  // lstat: a symbolic link or a folder is refused rather than followed.
  const stats = await fs.lstat(filePath).catch(() => null);
  if (!stats) return refuse("The file could not be read");
  if (!stats.isFile()) return refuse(NOT_A_FILE);
  if (stats.size > CHAT_UPLOAD_MAX_BYTES) return refuse(FILE_MESSAGES.tooLarge, 413);

  const handle = await fs.open(filePath, "r").catch(() => null);
  if (!handle) return refuse("The file could not be read");
  try {
    // The open file's own size: the file may have changed since lstat.
    const opened = await handle.stat();
    if (!opened.isFile()) return await closeAnd(handle, refuse(NOT_A_FILE));
    if (opened.size > CHAT_UPLOAD_MAX_BYTES)
      return await closeAnd(handle, refuse(FILE_MESSAGES.tooLarge, 413));
    const head = Buffer.alloc(Math.min(CONVERSATION_SNIFF_BYTES, opened.size));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const problem = await conversationFileProblem(fileName, head.subarray(0, bytesRead));
    if (problem) return await closeAnd(handle, refuse(problem));
    const contentType = CONVERSATION_CONTENT_TYPES[extension] ?? "application/octet-stream";
    return { ok: true, file: { handle, fileName, contentType, size: opened.size } };
  } catch {
    return closeAnd(handle, refuse("The file could not be read"));
  }
}

async function closeAnd(handle: FileHandle, check: FileCheck): Promise<FileCheck> {
  await handle.close().catch(() => {});
  return check;
}
