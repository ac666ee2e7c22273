import { createHash } from "node:crypto";
import yauzl from "yauzl";
import type { TestAgent } from "./server";

export interface ZipDownload {
  status: number;
  headers: Headers;
  /** Each entry's bytes by its path in the ZIP (empty unless the answer was a ZIP). */
  entries: Map<string, Buffer>;
  /** The JSON answer when there was no ZIP (202, an error). */
  json: unknown;
}

/** GET `url` as `agent` (or signed out) and read the answer's ZIP entry by entry with yauzl. */
export async function downloadZip(url: string, agent?: TestAgent): Promise<ZipDownload> {
  const response = await fetch(url, {
    headers: agent?.cookieHeader ? { cookie: agent.cookieHeader } : {},
  });
  const body = Buffer.from(await response.arrayBuffer());
  const zip = response.headers.get("content-type") === "application/zip";
  return {
    status: response.status,
    headers: response.headers,
    entries: zip ? await unzip(body) : new Map(),
    json: zip ? null : JSON.parse(body.toString("utf8")),
  };
}

/** Every entry of a ZIP, read back with yauzl (which checks each entry's CRC-32 and size). */
export function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true }, (error, file) => {
      if (error || !file) return reject(error);
      const entries = new Map<string, Buffer>();
      file.on("error", reject);
      file.on("end", () => resolve(entries));
      file.on("entry", (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("error", reject);
          stream.on("end", () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}

export const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
