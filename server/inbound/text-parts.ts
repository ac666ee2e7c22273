import { type MimeChunk, type MimeNode, Splitter } from "mailsplit";

/**
 * Rewrites a received mail so that its text parts say the truth: each text/plain and text/html
 * part (not an attachment) is decoded here by the rules below and re-encoded as UTF-8 base64, and
 * a multipart mail with no part becomes a text/plain one. mailparser then reads it as usual.
 * Everything else (headers, attachments, boundaries) is passed on byte for byte.
 *
 * - Transfer encoding: quoted-printable is decoded byte by byte, so raw 8-bit bytes written
 *   under a quoted-printable header stay what they are (mailparser's decoder garbles them).
 * - Charset: see textOf().
 */
export async function normalizeTextParts(source: Buffer): Promise<Buffer> {
  const splitter = new Splitter();
  splitter.end(source);
  const items: (MimeNode | MimeChunk)[] = [];
  for await (const item of splitter) items.push(item);

  const root = items[0];
  if (root?.type === "node" && root.multipart && !items.slice(1).some(isNode)) {
    return Buffer.concat(asTextMessage(root, items.slice(1) as MimeChunk[]));
  }

  const out: Buffer[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (!isNode(item)) {
      out.push(item.value);
      continue;
    }
    if (!isText(item) || !readableCharset(item.charset)) {
      out.push(item.getHeaders());
      continue;
    }
    const body: Buffer[] = [];
    while (items[i + 1]?.type === "body") body.push((items[++i] as MimeChunk).value);
    const bytes = decodeTransfer(Buffer.concat(body), item.encoding);
    out.push(...asUtf8Part(item, textOf(bytes, item.charset)));
  }
  return Buffer.concat(out);
}

function isNode(item: MimeNode | MimeChunk): item is MimeNode {
  return item.type === "node";
}

/** A text part mailparser shows as the mail's text or HTML (the same test it makes). */
function isText(node: MimeNode): boolean {
  if (node.multipart) return false;
  const type = node.contentType || (node.root ? "text/plain" : "");
  if (type !== "text/plain" && type !== "text/html") return false;
  return !node.disposition || node.disposition === "inline";
}

/**
 * Whether textOf() reads this charset; mailparser's own decoder is left the few that
 * TextDecoder does not know (UTF-7 and the like).
 */
function readableCharset(declared: string | false): boolean {
  return !declared || decoderFor(declared.trim().toLowerCase()) !== null;
}

/** The text written after the headers of a multipart mail that has no part, as text/plain. */
function asTextMessage(root: MimeNode, chunks: MimeChunk[]): Buffer[] {
  const raw = Buffer.concat(chunks.map((chunk) => chunk.value)).toString("latin1");
  // A lone delimiter line (an opening or closing one with no part after it) is not text.
  const boundary = root._boundary ? `--${root._boundary.toString("latin1")}` : null;
  const text = raw
    .split(/(?<=\n)/)
    .filter((line) => {
      const bare = line.trimEnd();
      return bare !== boundary && bare !== `${boundary}--`;
    })
    .join("");
  root.setContentType("text/plain");
  return asUtf8Part(root, textOf(Buffer.from(text, "latin1"), root.charset));
}

function asUtf8Part(node: MimeNode, text: string): Buffer[] {
  node.setCharset("utf-8");
  node.headers.update("Content-Transfer-Encoding", "base64");
  const base64 = Buffer.from(text, "utf8").toString("base64");
  return [node.getHeaders(), Buffer.from(base64.replace(/.{76}(?=.)/g, "$&\r\n"))];
}

export function decodeTransfer(raw: Buffer, encoding: string): Buffer {
  if (encoding === "base64") return Buffer.from(raw.toString("latin1"), "base64");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(raw);
  return raw;
}

const HEX = /^[0-9A-Fa-f]{2}$/;

/** RFC 2045 quoted-printable, on bytes: "=XX" and soft breaks are decoded, any other byte kept. */
export function decodeQuotedPrintable(raw: Buffer): Buffer {
  // Trailing blanks on a line were added in transport (RFC 2045 6.7 rule 3).
  const text = raw.toString("latin1").replace(/[ \t]+(?=\r?\n|$)/g, "");
  const out = Buffer.alloc(text.length);
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === "=") {
      const next = text.slice(i + 1, i + 3);
      if (HEX.test(next)) {
        out[length++] = Number.parseInt(next, 16);
        i += 2;
        continue;
      }
      const softBreak = /^(?:\r\n|\n)/.exec(text.slice(i + 1, i + 3));
      if (softBreak) {
        i += softBreak[0].length;
        continue;
      }
    }
    out[length++] = char.charCodeAt(0);
  }
  return out.subarray(0, length);
}

/**
 * The text of a part's bytes. Bytes that are valid UTF-8 and not plain ASCII are read as UTF-8
 * whatever charset is declared: text in a legacy charset is practically never valid UTF-8
 * beyond a character or two, while a wrong label is common (Big5 or ISO-8859-1 declared by a
 * gateway that re-encoded the text), and some lies even decode "cleanly" into mojibake. Other
 * bytes are read in the declared charset; with none or us-ascii, as windows-1252 (what
 * undeclared 8-bit mail nearly always is).
 */
export function textOf(bytes: Buffer, declared: string | false): string {
  const decoder = decoderFor((declared || "").trim().toLowerCase());
  const utf16 = decoder?.encoding.startsWith("utf-16") ?? false;
  if (!utf16 && bytes.some((byte) => byte > 0x7f)) {
    const utf8 = strictUtf8(bytes);
    if (utf8 !== null) return utf8;
  }
  if (!decoder || decoder.encoding === "windows-1252") return windows1252(bytes);
  return decoder.decode(bytes);
}

/** 0x80–0x9F in windows-1252 (undefined ones stay C1 controls). */
const CP1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

/**
 * windows-1252 (which ISO-8859-1 and us-ascii labels mean too, per WHATWG): Node's TextDecoder
 * reads it as ISO-8859-1, turning curly quotes and dashes into control characters.
 */
function windows1252(bytes: Buffer): string {
  let text = "";
  for (const byte of bytes) {
    text += byte >= 0x80 && byte <= 0x9f ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
  }
  return text;
}

function strictUtf8(bytes: Buffer): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function decoderFor(label: string): TextDecoder | null {
  if (!label) return null;
  try {
    return new TextDecoder(label);
  } catch {
    return null;
  }
}
