/** The part of mailsplit (mailparser's own MIME splitter) that server/inbound/text-parts.ts uses. */
declare module "mailsplit" {
  import type { Transform } from "node:stream";

  export interface MimeHeaders {
    update(key: string, value: string): void;
  }

  export interface MimeNode {
    type: "node";
    root: boolean;
    /** The multipart subtype ("alternative", "mixed", …), or false for a leaf. */
    multipart: string | false;
    contentType: string | false;
    charset: string | false;
    /** Content-Transfer-Encoding, lower-cased ("" when missing). */
    encoding: string;
    disposition: string | false;
    headers: MimeHeaders;
    /** A multipart node's boundary (mailsplit's own field). */
    _boundary: Buffer | false;
    setContentType(contentType: string): void;
    setCharset(charset: string): void;
    getHeaders(): Buffer;
  }

  /** A leaf's body, or what lies between parts (preamble, boundaries, epilogue). */
  export interface MimeChunk {
    type: "body" | "data";
    value: Buffer;
  }

  export class Splitter extends Transform {
    [Symbol.asyncIterator](): AsyncIterableIterator<MimeNode | MimeChunk>;
  }
}
