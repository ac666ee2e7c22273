import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAT_UPLOAD_MAX_BYTES } from "../../../shared/files";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import type { HubMessage } from "../../realtime/hub";
import { Message, StoredFile } from "../../models";
import { CONVERSATION_SNIFF_BYTES, zipEntryNames } from "../../uploads/conversation-files";

const ACTORS = ["anon", "B", "A2", "B1", "A1", "A"] as const;
type Actor = (typeof ACTORS)[number];

let server: TestServer;
let A: SignedInOwner;
let B: SignedInOwner;
let A1: JoinedClient;
let A2: JoinedClient;
let B1: JoinedClient;
let agents: Record<Actor, TestAgent>;

beforeAll(async () => {
  server = await startTestServer();
  A = await signUpOwner(server, "Alice Owner");
  B = await signUpOwner(server, "Bob Owner");
  await setTier(A.id, "pro");
  A1 = await addJoinedClient(server, A, { name: "Client One Of Alice" });
  A2 = await addJoinedClient(server, A, { name: "Other Client Of Alice" });
  B1 = await addJoinedClient(server, B, { name: "Client Of Bob" });
  agents = {
    anon: server.agent(),
    A: A.agent,
    B: B.agent,
    A1: A1.agent,
    A2: A2.agent,
    B1: B1.agent,
  };
});
afterAll(() => server?.close());

// ---- fixtures ----

const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
);
const HTML = Buffer.from(
  "<!doctype html><html><body><script>alert(document.cookie)</script></body></html>",
);
/** The start of a Windows executable: "MZ", then the DOS stub. */
const EXE = Buffer.concat([
  Buffer.from("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00", "latin1"),
  Buffer.alloc(44),
  Buffer.from([0x80, 0, 0, 0]),
  Buffer.from("This program cannot be run in DOS mode.\r\r\n$"),
  Buffer.alloc(200),
]);
const DOC = Buffer.concat([
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  Buffer.alloc(1024),
]);
const png = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: "#0093ff" } })
    .png()
    .toBuffer();
const jpeg = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: "#ff9300" } })
    .jpeg()
    .toBuffer();

/** A ZIP of stored (uncompressed) entries: enough local headers for the .docx check. */
function zip(entries: [string, string][]): Buffer {
  const parts: Buffer[] = [];
  for (const [name, text] of entries) {
    const data = Buffer.from(text);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(Buffer.byteLength(name), 26);
    parts.push(header, Buffer.from(name), data);
  }
  return Buffer.concat(parts);
}
const DOCX = zip([
  ["[Content_Types].xml", '<?xml version="1.0"?><Types/>'],
  ["_rels/.rels", "<Relationships/>"],
  ["word/document.xml", "<w:document/>"],
]);
/** A .docx whose `word/` entries start past 16 KB, behind a thumbnail, and ~3 MB in all. */
const DOCX_WITH_THUMBNAIL = zip([
  ["[Content_Types].xml", '<?xml version="1.0"?><Types/>'],
  ["docProps/thumbnail.jpeg", "t".repeat(40 * 1024)],
  ["word/document.xml", "<w:document/>"],
  ["word/media/image1.png", "i".repeat(3 * 1024 * 1024)],
]);
const XLSX = zip([
  ["[Content_Types].xml", '<?xml version="1.0"?><Types/>'],
  ["xl/workbook.xml", "<workbook/>"],
]);

// ---- helpers ----

interface Part {
  field: string;
  data?: Buffer;
  filename?: string;
  value?: string;
}

function form(...parts: Part[]): FormData {
  const body = new FormData();
  for (const part of parts) {
    if (part.data) {
      body.append(
        part.field,
        new Blob([new Uint8Array(part.data)], { type: "application/octet-stream" }),
        part.filename ?? "file.pdf",
      );
    } else body.append(part.field, part.value ?? "");
  }
  return body;
}

const upload = (agent: TestAgent, clientId: string, body: FormData) =>
  agent.request("POST", `/api/clients/${clientId}/upload`, { body });
const uploadFile = (
  agent: TestAgent,
  clientId: string,
  data: Buffer,
  filename = "brief.pdf",
  requiresFeedback?: string,
) =>
  upload(
    agent,
    clientId,
    form(
      ...(requiresFeedback === undefined
        ? []
        : [{ field: "requiresFeedback", value: requiresFeedback }]),
      { field: "file", data, filename },
    ),
  );

function storedFiles(): string[] {
  const root = path.join(server.dataDir, "files");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** Storage, files rows and messages: compared before and after a refused upload. */
/** This file's conversations (the PostgreSQL test database is shared between test files). */
const ours = () => [A1.id, A2.id, B1.id];

async function snapshot() {
  return {
    files: storedFiles(),
    rows: (await StoredFile.query().select("id").whereIn("clientId", ours()).orderBy("id")).map(
      (row) => row.id,
    ),
    messages: (await Message.query().select("id").whereIn("clientId", ours()).orderBy("id")).map(
      (row) => row.id,
    ),
  };
}

/** The upload is refused with `status`, and storage and database are as before. */
async function refused(status: number, send: () => Promise<{ status: number; body: any }>) {
  const before = await snapshot();
  const response = await send();
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(await snapshot()).toEqual(before);
  return response.body?.message as string;
}

const nameFromUrl = (url: string) => url.replace("/api/download/", "");

/** A multipart body of one file in the field `file`, as raw bytes. */
function multipartBody(data: Buffer, filename: string, boundary = "RawBoundary42") {
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    head: Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        "Content-Type: application/octet-stream\r\n\r\n",
    ),
    data,
    tail: Buffer.from(`\r\n--${boundary}--\r\n`),
  };
}

/**
 * Sends an upload with node:http, so that the test controls the framing: chunked (no
 * Content-Length) and written piece by piece, or cut off by the client half way.
 */
function rawUpload(agent: TestAgent, clientId: string) {
  const url = `${server.url}/api/clients/${clientId}/upload`;
  return (contentType: string, headers: Record<string, string> = {}) => {
    const request = http.request(url, {
      method: "POST",
      headers: {
        "content-type": contentType,
        cookie: agent.cookieHeader,
        origin: server.url,
        ...headers,
      },
    });
    const response = new Promise<{ status: number; contentType: string; body: any }>(
      (resolve, reject) => {
        request.once("error", reject);
        request.once("response", (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.once("end", () => {
            const text = Buffer.concat(chunks).toString();
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers["content-type"]),
              body: text ? JSON.parse(text) : null,
            });
          });
        });
      },
    );
    return { request, response };
  };
}

/** Writes `data` in pieces of `size`, waiting for the socket to take each. */
async function writeInPieces(request: http.ClientRequest, data: Buffer, size = 64 * 1024) {
  for (let at = 0; at < data.length; at += size) {
    if (request.destroyed) return;
    if (!request.write(data.subarray(at, at + size)))
      await new Promise<void>((resolve) => {
        const done = () => {
          request.off("drain", done);
          request.off("close", done);
          resolve();
        };
        request.on("drain", done);
        request.on("close", done);
      });
  }
}

// ---- tests ----

describe("POST /api/clients/:id/upload", () => {
  it("answers the authorization matrix, and a client cannot ask for feedback", async () => {
    const expected: Record<Actor, number> = {
      anon: 401,
      B: 404,
      A2: 404,
      B1: 404,
      A1: 201,
      A: 201,
    };
    for (const actor of ACTORS) {
      const send = () => uploadFile(agents[actor], A1.id, PDF, `from-${actor}.pdf`);
      if (expected[actor] === 201) {
        const response = await send();
        expect(response.status, actor).toBe(201);
      } else await refused(expected[actor], send);
    }
    const message = await refused(403, () => uploadFile(A1.agent, A1.id, PDF, "x.pdf", "true"));
    expect(message).toBe("Only the owner can ask for feedback on a file");
    // Unknown and malformed conversation ids.
    await refused(404, () => uploadFile(A.agent, "00000000-0000-4000-8000-000000000000", PDF));
    await refused(404, () => uploadFile(A.agent, "not-a-uuid", PDF));
  });

  it("stores the file under a server-made name and answers with the file message", async () => {
    const events: HubMessage[] = [];
    const unsubscribe = server.services.realtime.subscribe((message) => events.push(message));
    const newest = (await A.agent.get(`/api/clients/${A1.id}/messages`)).body.at(-1)?.id ?? null;
    const response = await uploadFile(A.agent, A1.id, PDF, "Proposal v1.pdf", "true");
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      content: null,
      fileName: "Proposal v1.pdf",
      fileSize: PDF.length,
      senderRole: "owner",
      senderName: "Alice Owner",
      requiresFeedback: true,
      feedbackStatus: "pending",
      feedbackComment: null,
      feedbackAt: null,
      feedbackByName: null,
      versionOf: null,
      versionNumber: 1,
      isLatestVersion: true,
      read: false,
    });
    expect(response.body.fileUrl).toMatch(/^\/api\/download\/[0-9a-f]{32}\.pdf$/);
    // On PostgreSQL the event comes back through NOTIFY, possibly after the answer.
    await expect
      .poll(() => events)
      .toContainEqual({
        kind: "event",
        event: {
          type: "new_message",
          clientId: A1.id,
          messageId: response.body.id,
          afterId: newest,
        },
        // The owner's view is the answer itself.
        views: expect.objectContaining({ owner: response.body }),
      });
    unsubscribe();
    const row = await StoredFile.query().findOne({
      storedName: nameFromUrl(response.body.fileUrl),
    });
    expect(row).toMatchObject({
      clientId: A1.id,
      uploadedBy: A.id,
      contentType: "application/pdf",
    });

    // The message is in the conversation, for both sides.
    const messages = await A1.agent.get(`/api/clients/${A1.id}/messages`);
    expect(messages.body.at(-1)).toMatchObject({
      id: response.body.id,
      fileName: "Proposal v1.pdf",
    });

    // requiresFeedback "false" and absent both give a plain file.
    for (const value of ["false", undefined]) {
      const plain = await uploadFile(A.agent, A1.id, PDF, "plain.pdf", value);
      expect(plain.body).toMatchObject({ requiresFeedback: false, feedbackStatus: null });
    }
  });

  it("accepts pdf, jpg, jpeg, png, doc and docx whose content matches, with their types", async () => {
    const cases: [string, Buffer, string, string][] = [
      ["a.pdf", PDF, "application/pdf", "inline"],
      // Images are shown from their preview: the original is a download.
      ["b.JPG", await jpeg(), "image/jpeg", "attachment"],
      ["c.jpeg", await jpeg(), "image/jpeg", "attachment"],
      ["d.png", await png(), "image/png", "attachment"],
      ["e.doc", DOC, "application/msword", "attachment"],
      [
        "f.docx",
        DOCX,
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "attachment",
      ],
    ];
    for (const [name, data, type, disposition] of cases) {
      const response = await uploadFile(A1.agent, A1.id, data, name);
      expect(response.status, name).toBe(201);
      expect(response.body).toMatchObject({
        fileName: name,
        senderRole: "client",
        senderName: "Client One Of Alice",
      });
      const download = await A.agent.get(response.body.fileUrl);
      expect(download.status).toBe(200);
      expect(download.headers.get("content-type")).toBe(type);
      expect(download.headers.get("content-disposition")).toMatch(new RegExp(`^${disposition};`));
      expect(download.headers.get("x-content-type-options")).toBe("nosniff");
      expect(download.headers.get("content-security-policy")).toBe("sandbox");
    }
  });

  it("accepts exactly 10MB", async () => {
    const data = Buffer.concat([PDF, Buffer.alloc(CHAT_UPLOAD_MAX_BYTES - PDF.length, 0x20)]);
    const response = await uploadFile(A.agent, A1.id, data, "big.pdf");
    expect(response.status).toBe(201);
    expect(response.body.fileSize).toBe(CHAT_UPLOAD_MAX_BYTES);
  });

  describe("bad input leaves storage and database as before", () => {
    it("10MB and one byte: 413", async () => {
      const data = Buffer.concat([PDF, Buffer.alloc(CHAT_UPLOAD_MAX_BYTES + 1 - PDF.length, 0x20)]);
      const message = await refused(413, () => uploadFile(A.agent, A1.id, data, "huge.pdf"));
      expect(message).toBe("File size must be less than 10 MB");
    });

    it("zero bytes: 400", async () => {
      expect(
        await refused(400, () => uploadFile(A.agent, A1.id, Buffer.alloc(0), "empty.pdf")),
      ).toBe("The file is empty");
    });

    it("an extension that is not accepted: 400 File type not supported", async () => {
      for (const name of ["run.exe", "page.html", "image.svg", "noextension", "archive.zip"]) {
        expect(await refused(400, () => uploadFile(A.agent, A1.id, PDF, name))).toBe(
          "File type not supported",
        );
      }
    });

    it("content that does not match the extension: 400", async () => {
      const cases: [Buffer, string, RegExp][] = [
        [EXE, "invoice.pdf", /not a PDF document/],
        [HTML, "photo.png", /not a PNG image/],
        [PDF, "photo.png", /not a PNG image/],
        [await png(), "photo.jpg", /not a JPEG image/],
        [EXE, "letter.doc", /not a Word \(\.doc\) document/],
        [XLSX, "letter.docx", /not a Word \(\.docx\) document/],
        [DOC, "letter.docx", /not a Word \(\.docx\) document/],
        [Buffer.from("hello"), "notes.pdf", /not a PDF document/],
      ];
      for (const [data, name, pattern] of cases) {
        expect(await refused(400, () => uploadFile(A.agent, A1.id, data, name)), name).toMatch(
          pattern,
        );
      }
    });

    it("missing file field, two files, other fields, a bad requiresFeedback: 400", async () => {
      expect(
        await refused(400, () =>
          upload(A.agent, A1.id, form({ field: "requiresFeedback", value: "true" })),
        ),
      ).toBe('Please attach a file in the "file" field');
      expect(
        await refused(400, () => upload(A.agent, A1.id, form({ field: "file", value: "text" }))),
      ).toBe('Please attach a file in the "file" field');
      expect(
        await refused(400, () =>
          upload(
            A.agent,
            A1.id,
            form({ field: "file", data: PDF }, { field: "file", data: PDF, filename: "b.pdf" }),
          ),
        ),
      ).toBe("Please send one file at a time");
      expect(
        await refused(400, () =>
          upload(A.agent, A1.id, form({ field: "other", data: PDF }, { field: "file", data: PDF })),
        ),
      ).toMatch(/Unexpected file field "other"/);
      expect(
        await refused(400, () =>
          upload(
            A.agent,
            A1.id,
            form({ field: "file", data: PDF }, { field: "clientId", value: A2.id }),
          ),
        ),
      ).toMatch(/Unexpected field "clientId"/);
      expect(await refused(400, () => uploadFile(A.agent, A1.id, PDF, "a.pdf", "yes"))).toBe(
        'requiresFeedback must be "true" or "false"',
      );
      const json = await refused(400, () =>
        A.agent.post(`/api/clients/${A1.id}/upload`, { file: "x" }),
      );
      expect(json).toMatch(/multipart/);
    });
  });

  describe("streams through the content check whatever the file's size", () => {
    // These hung (no answer at all) while the head for sniffing was larger than the buffer
    // that paused the upload before the head was complete.
    it("accepts a .docx whose word/ entries start past 16 KB, and answers for tiny files", async () => {
      const docx = await uploadFile(A.agent, A1.id, DOCX_WITH_THUMBNAIL, "report.docx");
      expect(docx.status, JSON.stringify(docx.body)).toBe(201);
      expect(docx.body.fileSize).toBe(DOCX_WITH_THUMBNAIL.length);
      const download = await A.agent.request("GET", docx.body.fileUrl);
      expect(download.status).toBe(200);
      expect(Number(download.headers.get("content-length"))).toBe(DOCX_WITH_THUMBNAIL.length);

      for (const size of [1, 3, 4099, 4100, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1]) {
        const data = Buffer.concat([PDF, Buffer.alloc(size, 0x20)]).subarray(0, size);
        const response = await uploadFile(A.agent, A1.id, data, "tiny.pdf");
        if (size < 4) expect(response.status, String(size)).toBe(400);
        else expect(response.body.fileSize, String(size)).toBe(size);
      }
    }, 20_000);

    it("takes exactly 10MB sent chunked, piece by piece, and cuts 10MB + 1 byte with a 413", async () => {
      const send = async (size: number) => {
        const body = multipartBody(
          Buffer.concat([PDF, Buffer.alloc(size - PDF.length, 0x20)]),
          "chunked.pdf",
        );
        const { request, response } = rawUpload(A.agent, A1.id)(body.contentType);
        request.write(body.head);
        await writeInPieces(request, body.data, 100_003);
        request.end(body.tail);
        return response;
      };
      const exact = await send(CHAT_UPLOAD_MAX_BYTES);
      expect(exact.status, JSON.stringify(exact.body)).toBe(201);
      expect(exact.body.fileSize).toBe(CHAT_UPLOAD_MAX_BYTES);

      const before = await snapshot();
      const over = await send(CHAT_UPLOAD_MAX_BYTES + 1);
      expect(over.status).toBe(413);
      expect(over.contentType).toMatch(/^application\/json/);
      expect(over.body).toEqual({ message: "File size must be less than 10 MB" });
      expect(await snapshot()).toEqual(before);
    }, 30_000);

    it("keeps neither a partial file nor a row when the client goes away mid-upload", async () => {
      for (const sentBeforeAbort of [10 * 1024, 3 * 1024 * 1024]) {
        const before = await snapshot();
        const data = Buffer.concat([PDF, Buffer.alloc(CHAT_UPLOAD_MAX_BYTES - PDF.length, 0x20)]);
        const body = multipartBody(data, "cut.pdf");
        const length = body.head.length + data.length + body.tail.length;
        const { request, response } = rawUpload(A.agent, A1.id)(body.contentType, {
          "content-length": String(length),
        });
        response.catch(() => {});
        request.write(body.head);
        await writeInPieces(request, data.subarray(0, sentBeforeAbort));
        // Past the content check the bytes are on their way to disk: cut while they are.
        if (sentBeforeAbort > CONVERSATION_SNIFF_BYTES)
          await expect
            .poll(() => storedFiles().some((file) => file.endsWith(".partial")))
            .toBe(true);
        request.destroy();
        await expect.poll(snapshot).toEqual(before);
      }
      // The server is still fine afterwards.
      const after = await uploadFile(A.agent, A1.id, PDF, "after.pdf");
      expect(after.status).toBe(201);
    }, 30_000);
  });

  it("keeps the original name for display only, cleaned", async () => {
    const long = `${"日本語の長いファイル名".repeat(30)}.pdf`;
    const cases: [string, string][] = [
      ["../../etc/passwd.pdf", "passwd.pdf"],
      ["..\\..\\windows\\evil.pdf", "evil.pdf"],
      ["%2e%2e%2f%2e%2e%2fsecret.pdf", "%2e%2e%2f%2e%2e%2fsecret.pdf"],
      ["right\u202Efdp.exe.pdf", "rightfdp.exe.pdf"],
    ];
    for (const [given, shown] of cases) {
      const response = await uploadFile(A.agent, A1.id, PDF, given);
      expect(response.status, given).toBe(201);
      expect(response.body.fileName).toBe(shown);
      expect(response.body.fileUrl).toMatch(/^\/api\/download\/[0-9a-f]{32}\.pdf$/);
    }
    // A raw NUL in the part header is malformed multipart (busboy); an encoded one is removed.
    const raw = (disposition: string) =>
      A.agent.request("POST", `/api/clients/${A1.id}/upload`, {
        headers: { "content-type": "multipart/form-data; boundary=XyZ" },
        body: Buffer.concat([
          Buffer.from(
            `--XyZ\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\n\r\n`,
          ),
          PDF,
          Buffer.from("\r\n--XyZ--\r\n"),
        ]),
      });
    expect(await refused(400, () => raw('filename="bad\u0000name.pdf"'))).toBe(
      "Malformed multipart request",
    );
    const encoded = await raw("filename*=utf-8''bad%00name%2e%2e%2F..%2Fx.pdf");
    expect(encoded.status).toBe(201);
    expect(encoded.body.fileName).toBe("x.pdf");
    const nul = await raw("filename*=utf-8''bad%00name.pdf");
    expect(nul.body.fileName).toBe("badname.pdf");

    const response = await uploadFile(A.agent, A1.id, PDF, long);
    expect(response.status).toBe(201);
    expect(Array.from(response.body.fileName as string).length).toBeLessThanOrEqual(200);
    expect(response.body.fileName).toMatch(/^日本語.*\.pdf$/);
    // Every stored file sits under the storage directory, with a server-made name (an image's
    // preview under that name and ".preview").
    for (const file of storedFiles())
      expect(path.basename(file)).toMatch(/^[0-9a-f]{32}\.[a-z]+(\.preview)?$/);
  });
});

describe("GET /api/clients/:id/attachments and downloads", () => {
  it("lists the file messages newest first, for the members only", async () => {
    const first = await uploadFile(A.agent, A2.id, PDF, "first.pdf", "true");
    await A.agent.post(`/api/clients/${A2.id}/messages`, { content: "not a file" });
    const second = await uploadFile(A2.agent, A2.id, await png(), "second.png");
    const expected: Record<Actor, number> = {
      anon: 401,
      B: 404,
      A2: 200,
      B1: 404,
      A1: 404,
      A: 200,
    };
    for (const actor of ACTORS) {
      const response = await agents[actor].get(`/api/clients/${A2.id}/attachments`);
      expect(response.status, actor).toBe(expected[actor]);
      if (response.status !== 200) continue;
      expect(response.body.map((message: { id: string }) => message.id)).toEqual([
        second.body.id,
        first.body.id,
      ]);
      expect(response.body[1]).toMatchObject({
        fileName: "first.pdf",
        senderRole: "owner",
        requiresFeedback: true,
        feedbackStatus: "pending",
      });
      expect(response.body[0]).toMatchObject({ fileName: "second.png", senderRole: "client" });
    }
  });

  it("serves an uploaded file to the owner and the client of its conversation only", async () => {
    const uploaded = await uploadFile(A1.agent, A1.id, PDF, "mine.pdf");
    const expected: Record<Actor, number> = {
      anon: 404,
      B: 404,
      A2: 404,
      B1: 404,
      A1: 200,
      A: 200,
    };
    for (const actor of ACTORS) {
      const response = await agents[actor].get(uploaded.body.fileUrl);
      expect(response.status, actor).toBe(expected[actor]);
      if (response.status === 200) expect(response.body).toBe(PDF.toString());
    }
  });
});

describe("zipEntryNames", () => {
  it("reads the names of the local headers, stopping at a cut-off header", () => {
    expect(zipEntryNames(DOCX)).toEqual([
      "[Content_Types].xml",
      "_rels/.rels",
      "word/document.xml",
    ]);
    expect(zipEntryNames(DOCX.subarray(0, 40))).toEqual([]);
  });
});
