import { randomBytes } from "node:crypto";
import {
  CONVERSATION_CONTENT_TYPES as CONTENT_TYPES,
  CONVERSATION_SNIFF_BYTES,
  contentMatches,
  conversationFileProblem,
  FILE_MESSAGES,
  zipEntryNames,
} from "../../shared/conversation-file-content";
import { CHAT_UPLOAD_MAX_BYTES, fileExtension } from "../../shared/files";
import type { AppContext } from "../context";
import { badRequest } from "../errors";
import type { Storage } from "../storage/storage";
import { storeUploadPreview } from "./image-preview";
import { cleanFileName, receiveSingleFile } from "./multipart";

export { CONVERSATION_SNIFF_BYTES, contentMatches, FILE_MESSAGES, zipEntryNames };

/**
 * The checks every conversation file passes (uploads and files sent by email alike): an
 * accepted extension, not empty, content that matches the extension (shared with the desktop
 * app, which checks a file on disk before sending it). Answers the extension (lower-case);
 * throws the 400 naming what is wrong.
 */
export async function checkConversationFile(originalName: string, head: Buffer): Promise<string> {
  const problem = await conversationFileProblem(originalName, head);
  if (problem) throw badRequest(problem);
  return fileExtension(originalName);
}

const newStoredName = (extension: string) => `${randomBytes(16).toString("hex")}.${extension}`;

/**
 * Stores a whole file already in memory (an email's attachment) after the same checks as an
 * upload: at most CHAT_UPLOAD_MAX_BYTES, the checks above, and an image's pixel limit and
 * preview. The caller owns the stored bytes from then on.
 */
export async function storeConversationFile(
  storage: Storage,
  filename: string,
  content: Buffer,
): Promise<ReceivedConversationFile> {
  if (content.length > CHAT_UPLOAD_MAX_BYTES) throw badRequest(FILE_MESSAGES.tooLarge);
  const originalName = cleanFileName(filename);
  const extension = await checkConversationFile(
    originalName,
    content.subarray(0, CONVERSATION_SNIFF_BYTES),
  );
  const storedName = newStoredName(extension);
  const stored = await storage.put(storedName, content);
  await storeUploadPreview(storage, storedName);
  return {
    storedName,
    originalName,
    contentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
    sizeBytes: stored.size,
  };
}

export interface ReceivedConversationFile {
  /** Made by the server: 128 random bits in hex and the (lower-case) extension. */
  storedName: string;
  /** The client's name, cleaned, for display only. */
  originalName: string;
  contentType: string;
  sizeBytes: number;
}

/**
 * Reads one file from the multipart field `file` and streams it to storage under a new name:
 * at most 10MB (413 while streaming, nothing kept), not empty, an accepted extension
 * ("File type not supported") whose content matches it; an image of at most 40 megapixels,
 * whose preview is then stored too (see image-preview). Answers once the whole request was
 * read and found well-formed; the bytes are removed again if it was not. The caller owns the
 * stored bytes from then on (and removes them if what it does next fails).
 */
export async function receiveConversationFile(
  ctx: AppContext,
  storage: Storage,
  fields: readonly string[] = [],
): Promise<{ file: ReceivedConversationFile; fields: Record<string, string> }> {
  const { value, fields: received } = await receiveSingleFile(
    ctx,
    {
      field: "file",
      maxBytes: CHAT_UPLOAD_MAX_BYTES,
      fields,
      sniffBytes: CONVERSATION_SNIFF_BYTES,
      messages: {
        tooLarge: FILE_MESSAGES.tooLarge,
        missing: FILE_MESSAGES.missing,
        tooMany: FILE_MESSAGES.oneFile,
      },
      discard: (file: ReceivedConversationFile) => storage.delete(file.storedName),
    },
    async (incoming) => {
      const originalName = cleanFileName(incoming.filename);
      const extension = await checkConversationFile(originalName, incoming.head);
      const storedName = newStoredName(extension);
      // Streams: errors with the 413 past the limit, and storage then keeps nothing.
      const stored = await storage.put(storedName, incoming.stream);
      return {
        storedName,
        originalName,
        contentType: CONTENT_TYPES[extension] ?? "application/octet-stream",
        sizeBytes: stored.size,
      };
    },
  );
  // An image is checked for its pixel count and its preview stored before anything names it.
  await storeUploadPreview(storage, value.storedName);
  return { file: value, fields: received };
}
