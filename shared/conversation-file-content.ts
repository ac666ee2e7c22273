import { fileTypeFromBuffer } from "file-type";
import { CHAT_UPLOAD_EXTENSIONS, CHAT_UPLOAD_TOO_LARGE, fileExtension } from "./files";
import { msg } from "./i18n/msg";

/**
 * What a conversation file must be, by its name and its first bytes: the server checks every
 * upload with these rules, and the desktop app checks a file on disk with the same ones before
 * it sends a byte. Node only (file-type, Buffer): the server and the desktop main process.
 */
export const FILE_MESSAGES = {
  notSupported: msg("File type not supported"),
  tooLarge: CHAT_UPLOAD_TOO_LARGE,
  empty: msg("The file is empty"),
  missing: 'Please attach a file in the "file" field',
  oneFile: msg("Please send one file at a time"),
} as const;

/** What each accepted extension is stored as (the type served on download). */
export const CONVERSATION_CONTENT_TYPES: Record<string, string> = {
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
      return type !== undefined && type.mime === CONVERSATION_CONTENT_TYPES[extension];
    }
  }
}

/** The refusal of a file that is not an accepted conversation file, by its name and first bytes; null when it is one. */
export async function conversationFileProblem(
  fileName: string,
  head: Buffer,
): Promise<string | null> {
  const extension = fileExtension(fileName);
  if (!CHAT_UPLOAD_EXTENSIONS.includes(extension)) return FILE_MESSAGES.notSupported;
  if (head.length === 0) return FILE_MESSAGES.empty;
  if (!(await contentMatches(extension, head)))
    return `This file is not ${DESCRIPTIONS[extension]}: its content does not match its .${extension} extension`;
  return null;
}
