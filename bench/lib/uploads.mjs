// Pieces shared by the upload and download benches: a 10MB PDF on disk, a conversation to
// put it in, and multipart uploads streamed from disk with node:http (nothing held whole).
import { createReadStream, openSync, closeSync, writeSync } from "node:fs";
import http from "node:http";
import { randomBytes } from "node:crypto";

export const MB = 1024 * 1024;
/** CHAT_UPLOAD_MAX_BYTES: the largest file the server accepts. */
export const UPLOAD_BYTES = 10 * MB;

const PDF_HEAD = Buffer.from(
  "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n",
);

/**
 * Writes a file of `size` bytes that the server takes as a PDF: the PDF header, then random
 * bytes (incompressible, like a real scan), then the trailer.
 */
export function writePdf(file, size = UPLOAD_BYTES) {
  const tail = Buffer.from("\ntrailer << /Root 1 0 R >>\n%%EOF\n");
  const fd = openSync(file, "w");
  try {
    writeSync(fd, PDF_HEAD);
    let left = size - PDF_HEAD.length - tail.length;
    while (left > 0) {
      const chunk = randomBytes(Math.min(left, MB));
      writeSync(fd, chunk);
      left -= chunk.length;
    }
    writeSync(fd, tail);
  } finally {
    closeSync(fd);
  }
}

/** Adds a client to the signed-in owner's account; its id names the conversation. */
export async function addClient(server, cookie) {
  const response = await fetch(`${server.url}/api/clients`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, cookie },
    body: JSON.stringify({
      name: "Bench Client",
      email: `bench-client-${randomBytes(4).toString("hex")}@example.test`,
      sendInviteEmail: false,
    }),
  });
  const body = await response.json();
  if (response.status !== 201)
    throw new Error(`add client: ${response.status} ${JSON.stringify(body)}`);
  return body.id;
}

const BOUNDARY = "----ClientDeskBench7MA4YWxkTrZu0gW";

/** The multipart framing around one file in the field `file`. */
function framing(filename) {
  return {
    head: Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        "Content-Type: application/pdf\r\n\r\n",
    ),
    tail: Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  };
}

/**
 * POSTs `file` (of `size` bytes) as multipart to `url`, streamed from disk with a
 * Content-Length, as a browser sends it. Resolves with the status and the parsed body.
 */
export function uploadFromDisk(url, { file, size, cookie, origin, filename = "bench.pdf" }) {
  const { head, tail } = framing(filename);
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      method: "POST",
      agent: false,
      headers: {
        "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
        "content-length": String(head.length + size + tail.length),
        ...(cookie ? { cookie } : {}),
        ...(origin ? { origin } : {}),
      },
    });
    request.once("error", reject);
    request.once("response", (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.once("end", () => {
        const text = Buffer.concat(chunks).toString();
        let body = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: response.statusCode, body });
      });
    });
    request.write(head);
    const source = createReadStream(file);
    source.once("error", (error) => request.destroy(error));
    source.pipe(request, { end: false });
    source.once("end", () => request.end(tail));
  });
}
