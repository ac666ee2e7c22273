import { randomBytes } from "node:crypto";
import { fileTypeFromBuffer } from "file-type";
import {
  CHAT_UPLOAD_EXTENSIONS,
  CHAT_UPLOAD_MAX_BYTES,
  fileExtension,
  formatFileSize,
} from "../../shared/files";
import type { AppContext } from "../context";
import { badRequest } from "../errors";
import type { Storage } from "../storage/storage";
import { storeUploadPreview } from "./image-preview";
import { cleanFileName, receiveSingleFile } from "./multipart";

export const FILE_MESSAGES = {
  notSupported: "File type not supported",
  tooLarge: `File size must be less than ${formatFileSize(CHAT_UPLOAD_MAX_BYTES)}`,
  empty: "The file is empty",
  missing: 'Please attach a file in the "file" field',
  oneFile: "Please send one file at a time",
} as const;

/** What each accepted extension is stored as (the type served on download). */
const CONTENT_TYPES: Record<string, string> = {
  pdf: "application/pdf",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

const DESCRIPTIONS: Record<string, string> = {
  pdf: "a PDF document",
  jpg: "a JPEG image",
  jpeg: "a JPEG image",
  png: "a PNG image",
  doc: "a Word (.doc) document",
  docx: "a Word (.docx) document",
};

/**
 * How many leading bytes are looked at: enough for file-type, and for the first entries of a
 * .docx (a ZIP) to show their names even when a large entry (e.g. a thumbnail) comes first.
 * Held in memory per upload while it streams, so kept to 64 KB.
 */
export const CONVERSATION_SNIFF_BYTES = 64 * 1024;

const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** The names of the ZIP local file headers found in `head` (a ZIP's first bytes). */
export function zipEntryNames(head: Buffer): string[] {
  const names: string[] = [];
  let at = head.indexOf(ZIP_LOCAL_HEADER);
  // Searching for every signature rather than skipping by compressed size also finds the
  // entries that follow one written with a data descriptor (sizes zero in its header).
  while (at !== -1 && at + 30 <= head.length) {
    const nameLength = head.readUInt16LE(at + 26);
    if (at + 30 + nameLength > head.length) break;
    names.push(head.subarray(at + 30, at + 30 + nameLength).toString("utf8"));
    at = head.indexOf(ZIP_LOCAL_HEADER, at + 30 + nameLength);
  }
  return names;
}

/**
 * Whether the first bytes of a file are what its (accepted) extension says:
 * pdf, jpg/jpeg, png by file-type's magic numbers; doc by the OLE2 compound file signature
 * (D0 CF 11 E0 A1 B1 1A E1) at offset 0; docx by the ZIP local header signature at offset 0
 * and, among the local file headers within the first 64 KB, an entry under `word/`.
 */
export async function contentMatches(extension: string, head: Buffer): Promise<boolean> {
  switch (extension) {
    case "doc":
      return head.subarray(0, OLE2_MAGIC.length).equals(OLE2_MAGIC);
    case "docx":
      return (
        head.subarray(0, 4).equals(ZIP_LOCAL_HEADER) &&
        zipEntryNames(head).some((name) => name.startsWith("word/"))
      );
    default: {
      const type = await fileTypeFromBuffer(head);
      return type !== undefined && type.mime === CONTENT_TYPES[extension];
    }
  }
}

/**
 * The checks every conversation file passes (uploads and files sent by email alike): an
 * accepted extension, not empty, content that matches the extension. Answers the extension
 * (lower-case); throws the 400 naming what is wrong.
 */
export async function checkConversationFile(originalName: string, head: Buffer): Promise<string> {
  const extension = fileExtension(originalName);
  if (!CHAT_UPLOAD_EXTENSIONS.includes(extension)) throw badRequest(FILE_MESSAGES.notSupported);
  if (head.length === 0) throw badRequest(FILE_MESSAGES.empty);
  if (!(await contentMatches(extension, head)))
    throw badRequest(
      `This file is not ${DESCRIPTIONS[extension]}: its content does not match its .${extension} extension`,
    );
  return extension;
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
