/**
 * Streamed uploads in main, with the fake electron module's ipcMain, against the real server
 * (the Koa app on a loopback port, a real session cookie). A counting proxy in front of the
 * server shows which uploads reached it at all.
 */
import { createHash, randomUUID } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import type { FileHandle } from "node:fs/promises";
import fsPromises from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MB } from "../../shared/files";
import { addClient, setTier } from "../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../tests/support/factories";
import { pdfOfSize } from "../../tests/support/storage-files";
import { type TestServer, startTestServer } from "../../tests/support/server";
import type { DesktopUploadProgress, DesktopUploadResult } from "../common/file-upload";
import { IpcChannels } from "../common/ipc-channels";
import { createFakeElectron, type FakeElectron } from "../test/fake-electron";
import { createFileUploader, READ_CHUNK_BYTES, type ReadStreamOpener } from "./file-upload";
import { registerFileUploadHandlers } from "./file-upload-ipc";
import type { FileSystemForUpload } from "./upload-file-check";
import type { UploadClientRequest } from "./upload-request";

const APP_PAGE = "app://clientdesk/";

/** Forwards to the server as it is, counting the requests (the Origin becomes the server's). */
async function countingProxy(target: string) {
  const upstream = new URL(target);
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host, origin: upstream.origin },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on("error", () => res.destroy());
    // A client that goes away mid-body is passed on as such to the server.
    req.on("close", () => {
      if (!req.complete) forwarded.destroy();
    });
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const sha256 = (data: Buffer | Uint8Array) => createHash("sha256").update(data).digest("hex");

let server: TestServer;
let proxy: Awaited<ReturnType<typeof countingProxy>>;
let owner: SignedInOwner;
let clientId: string;
let dir: string;
let fake: FakeElectron;
/** What the file reads looked like: every chunk main read from disk, by upload. */
let chunkSizes: number[];
let fileStreams: Readable[];
/** When set, every read after the first waits for it (to cancel mid-way). */
let gate: Promise<void> | null;

/** The files main opened and has not closed yet: empty once every upload is over. */
const openFiles = new Set<FileHandle>();
let filesOpened = 0;
const countingFs: FileSystemForUpload = {
  lstat: (filePath) => fsPromises.lstat(filePath),
  async open(filePath, flags) {
    const handle = await fsPromises.open(filePath, flags);
    filesOpened++;
    openFiles.add(handle);
    const close = handle.close.bind(handle);
    handle.close = () => {
      openFiles.delete(handle);
      return close();
    };
    return handle;
  },
};

const readStream: ReadStreamOpener = (handle, options) => {
  const source = handle.createReadStream(options);
  fileStreams.push(source);
  return Readable.from(
    (async function* () {
      let reads = 0;
      for await (const chunk of source) {
        if (reads++ > 0 && gate) await gate;
        chunkSizes.push((chunk as Buffer).length);
        yield chunk as Buffer;
      }
    })(),
    { objectMode: false },
  );
};

beforeAll(async () => {
  server = await startTestServer();
  proxy = await countingProxy(server.url);
  owner = await signUpOwner(server);
  await setTier(owner.id, "pro");
  clientId = (await addClient(owner)).id;
  dir = mkdtempSync(path.join(os.tmpdir(), "clientdesk-upload-"));
  fake = createFakeElectron();
  // The app session's jar holds the signed-in owner's cookies, as after sign-in.
  const session = fake.session.fromPartition("clientdesk");
  for (const pair of owner.agent.cookieHeader.split("; ")) {
    const at = pair.indexOf("=");
    await session.cookies.set({
      url: proxy.url,
      name: pair.slice(0, at),
      value: pair.slice(at + 1),
    });
  }
  // The app's session answers http(s) itself (server-bridge.ts, installed by index.ts);
  // uploads must pass it by (the fake net refuses a request that would not).
  for (const scheme of ["http", "https"]) {
    session.protocol.handle(scheme, () => {
      throw new Error("an upload went through the server bridge");
    });
  }
  registerFileUploadHandlers({
    ipcMain: fake.ipcMain,
    isAppUrl: (url) => url.startsWith(APP_PAGE),
    uploader: createFileUploader({
      serverUrl: proxy.url,
      net: fake.net,
      session,
      fs: countingFs,
      readStream,
    }),
  });
}, 60_000);

afterAll(async () => {
  await proxy?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  filesOpened = 0;
  chunkSizes = [];
  fileStreams = [];
  gate = null;
  proxy.requests.length = 0;
  fake.ipcMain.sender.sent.length = 0;
});

function fileOnDisk(name: string, content: Buffer): string {
  const filePath = path.join(dir, name);
  writeFileSync(filePath, content);
  return filePath;
}

function upload(filePath: string, extra: Record<string, unknown> = {}) {
  return fake.ipcMain.invoke(IpcChannels.uploadFile, APP_PAGE, {
    uploadId: randomUUID(),
    filePath,
    target: { kind: "conversation", clientId, requiresFeedback: false },
    idempotencyKey: randomUUID(),
    ...extra,
  }) as Promise<DesktopUploadResult>;
}

const progressEvents = () =>
  fake.ipcMain.sender.sent
    .filter(([channel]) => channel === IpcChannels.uploadProgress)
    .map(([, progress]) => progress as DesktopUploadProgress);

const attachments = async () => {
  const answer = await owner.agent.get(`/api/clients/${clientId}/attachments`);
  expect(answer.status).toBe(200);
  return answer.body as { id: string; fileName: string }[];
};

const storedFiles = () => {
  const files = path.join(server.dataDir, "files");
  if (!existsSync(files)) return [];
  return readdirSync(files, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
};

describe("streamed uploads from main", () => {
  it("streams a 9 MB file from disk in 64 KB reads; it arrives intact, with progress up to the total", async () => {
    const content = pdfOfSize(9 * MB);
    const filePath = fileOnDisk("Nine megabytes.pdf", content);

    const result = await upload(filePath);

    expect(result).toMatchObject({ outcome: "uploaded", status: 201 });
    const message = (result as { body: { id: string; fileName: string; fileUrl: string } }).body;
    expect(message.fileName).toBe("Nine megabytes.pdf");
    const download = await fetch(`${server.url}${message.fileUrl}`, {
      headers: { cookie: owner.agent.cookieHeader },
    });
    expect(download.status).toBe(200);
    expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(content));

    // Read from disk as a stream: never a whole-file buffer, one read at a time.
    expect(Math.max(...chunkSizes)).toBeLessThanOrEqual(READ_CHUNK_BYTES);
    expect(chunkSizes.length).toBeGreaterThanOrEqual(content.length / READ_CHUNK_BYTES);
    expect(chunkSizes.reduce((sum, size) => sum + size, 0)).toBe(content.length);
    expect(fileStreams.every((stream) => stream.destroyed)).toBe(true);
    expect(filesOpened).toBe(1);
    expect(openFiles.size).toBe(0);

    const progress = progressEvents();
    expect(progress.length).toBeGreaterThanOrEqual(2);
    for (const [index, event] of progress.entries()) {
      expect(event.total).toBe(content.length);
      if (index > 0) expect(event.sent).toBeGreaterThan(progress[index - 1]!.sent);
    }
    expect(progress.at(-1)!.sent).toBe(content.length);
    expect(proxy.requests).toEqual([`POST /api/clients/${clientId}/upload`]);
  });

  it("refuses a file over 10 MB, a type not accepted, content that is not what its name says, a folder and a link, before any request", async () => {
    const before = (await attachments()).length;
    proxy.requests.length = 0;
    const pdf = pdfOfSize(1000);
    const tooLarge = fileOnDisk("Eleven.pdf", pdfOfSize(11 * MB));
    const text = fileOnDisk("notes.txt", Buffer.from("plain text"));
    const disguised = fileOnDisk(
      "invoice.pdf",
      Buffer.from("MZ\x90\x00 this is a program", "latin1"),
    );
    const empty = fileOnDisk("empty.pdf", Buffer.alloc(0));
    const folder = path.join(dir, "folder.pdf");
    mkdirSync(folder);
    const link = path.join(dir, "link.pdf");
    symlinkSync(fileOnDisk("real.pdf", pdf), link);

    expect(await upload(tooLarge)).toEqual({
      outcome: "refused",
      status: 413,
      message: "File size must be less than 10 MB",
    });
    expect(await upload(text)).toEqual({
      outcome: "refused",
      status: 400,
      message: "File type not supported",
    });
    expect(await upload(disguised)).toEqual({
      outcome: "refused",
      status: 400,
      message: "This file is not a PDF document: its content does not match its .pdf extension",
    });
    expect(await upload(empty)).toMatchObject({ outcome: "refused", message: "The file is empty" });
    expect(await upload(folder)).toMatchObject({ outcome: "refused", status: 400 });
    expect(await upload(link)).toMatchObject({ outcome: "refused", status: 400 });
    expect(await upload(path.join(dir, "missing.pdf"))).toMatchObject({ outcome: "refused" });

    expect(proxy.requests).toEqual([]);
    expect(chunkSizes).toEqual([]);
    expect(progressEvents()).toEqual([]);
    expect((await attachments()).length).toBe(before);
    // The files opened for their checks (type, content) were all closed again.
    expect(filesOpened).toBeGreaterThan(0);
    expect(openFiles.size).toBe(0);
  });

  it("Cancel stops a running upload: the request is aborted, the file closed, and the server keeps nothing", async () => {
    const before = (await attachments()).length;
    const storedBefore = storedFiles();
    let release = () => {};
    gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const filePath = fileOnDisk("Cancelled.pdf", pdfOfSize(8 * MB));
    const uploadId = randomUUID();
    const idempotencyKey = randomUUID();
    const running = fake.ipcMain.invoke(IpcChannels.uploadFile, APP_PAGE, {
      uploadId,
      filePath,
      target: { kind: "conversation", clientId, requiresFeedback: false },
      idempotencyKey,
    }) as Promise<DesktopUploadResult>;

    await expect.poll(() => progressEvents().length).toBeGreaterThan(0);
    expect(progressEvents()[0]!.sent).toBeLessThan(8 * MB);
    expect(await fake.ipcMain.invoke(IpcChannels.cancelUpload, APP_PAGE, uploadId)).toBe(true);
    release();

    expect(await running).toEqual({ outcome: "cancelled" });
    await expect.poll(() => fileStreams.every((stream) => stream.destroyed)).toBe(true);
    expect(filesOpened).toBe(1);
    expect(openFiles.size).toBe(0);
    expect(chunkSizes.length).toBeLessThan((8 * MB) / READ_CHUNK_BYTES);
    expect(proxy.requests).toEqual([`POST /api/clients/${clientId}/upload`]);
    await expect.poll(storedFiles).toEqual(storedBefore);
    expect((await attachments()).length).toBe(before);
    // The server lets go of the key once the aborted request has unwound, a moment after its
    // partial file is gone; a retry before that is answered 409 "already being processed".
    await expect
      .poll(() => server.db("idempotency_keys").where("key", idempotencyKey).first())
      .toBeUndefined();
    // Nothing runs any more: cancelling again finds nothing.
    expect(await fake.ipcMain.invoke(IpcChannels.cancelUpload, APP_PAGE, uploadId)).toBe(false);

    // The same upload tried again with its key is stored once.
    gate = null;
    expect(await upload(filePath, { idempotencyKey })).toMatchObject({ outcome: "uploaded" });
    expect((await attachments()).length).toBe(before + 1);
    // By now the server is long done with the cancelled request: only the new file is kept.
    expect(storedFiles()).toHaveLength(storedBefore.length + 1);
    expect(storedFiles().some((name) => name.endsWith(".partial"))).toBe(false);
  });

  it("a retry with the same Idempotency-Key stores the file once and answers the same message", async () => {
    const before = (await attachments()).length;
    const filePath = fileOnDisk("Twice.pdf", pdfOfSize(200_000));
    const idempotencyKey = randomUUID();
    const first = await upload(filePath, {
      idempotencyKey,
      target: { kind: "conversation", clientId, requiresFeedback: true },
    });
    const again = await upload(filePath, {
      idempotencyKey,
      target: { kind: "conversation", clientId, requiresFeedback: true },
    });
    expect(first).toMatchObject({ outcome: "uploaded", body: { requiresFeedback: true } });
    expect(again).toMatchObject({ outcome: "uploaded" });
    expect((again as { body: { id: string } }).body.id).toBe(
      (first as { body: { id: string } }).body.id,
    );
    expect((await attachments()).length).toBe(before + 1);
  });

  it("sends a due date with a file for approval (issue 27), and only a date's shape", async () => {
    const dueDate = new Date(Date.now() + 3 * 24 * 60 * 60_000).toISOString().slice(0, 10);
    const result = await upload(fileOnDisk("Dated.pdf", pdfOfSize(3000)), {
      target: { kind: "conversation", clientId, requiresFeedback: true, dueDate },
    });
    expect(result).toMatchObject({ outcome: "uploaded", body: { dueDate } });
    await expect(
      upload(fileOnDisk("Undated.pdf", pdfOfSize(3000)), {
        target: { kind: "conversation", clientId, requiresFeedback: true, dueDate: "soon" },
      }),
    ).rejects.toThrow();
  });

  it("keeps a file name in any script, as a browser sends it", async () => {
    const result = await upload(fileOnDisk("Résumé 履歴書 — v2.pdf", pdfOfSize(3000)));
    expect(result).toMatchObject({
      outcome: "uploaded",
      body: { fileName: "Résumé 履歴書 — v2.pdf" },
    });
  });

  it("sends a new version to the message's versions endpoint (here: an unknown message, 404)", async () => {
    const result = await upload(fileOnDisk("Version 2.pdf", pdfOfSize(5000)), {
      target: { kind: "version", messageId: randomUUID() },
    });
    expect(result).toMatchObject({ outcome: "failed", status: 404 });
    expect(proxy.requests).toEqual([
      expect.stringMatching(/^POST \/api\/messages\/[0-9a-f-]+\/versions$/),
    ]);
  });

  it("answers the server's refusal with its message (here: not signed in)", async () => {
    const signedOut = createFakeElectron();
    registerFileUploadHandlers({
      ipcMain: signedOut.ipcMain,
      isAppUrl: (url) => url.startsWith(APP_PAGE),
      // A session with an empty cookie jar.
      uploader: createFileUploader({
        serverUrl: proxy.url,
        net: signedOut.net,
        session: signedOut.session.fromPartition("clientdesk"),
      }),
    });
    const result = await signedOut.ipcMain.invoke(IpcChannels.uploadFile, APP_PAGE, {
      uploadId: "u1",
      filePath: fileOnDisk("Signed out.pdf", pdfOfSize(5000)),
      target: { kind: "conversation", clientId, requiresFeedback: false },
      idempotencyKey: randomUUID(),
    });
    expect(result).toMatchObject({ outcome: "failed", status: 401 });
    expect((result as { message: string }).message).not.toBe("");
  });

  it("refuses calls from another page or frame and arguments it does not expect, reading nothing", async () => {
    const filePath = fileOnDisk("Refused.pdf", pdfOfSize(5000));
    const valid = {
      uploadId: "u2",
      filePath,
      target: { kind: "conversation", clientId, requiresFeedback: false },
      idempotencyKey: randomUUID(),
    };
    await expect(
      fake.ipcMain.invoke(IpcChannels.uploadFile, "https://evil.example/", valid),
    ).rejects.toThrow("IPC refused: not from the app");
    const handler = fake.ipcMain.handlers.get(IpcChannels.uploadFile)!;
    await expect(
      (async () =>
        handler(
          { senderFrame: { url: APP_PAGE, parent: {} }, sender: fake.ipcMain.sender },
          valid,
        ))(),
    ).rejects.toThrow("not from the main frame");
    const bad = [
      { ...valid, filePath: "relative/Refused.pdf" },
      { ...valid, path: filePath },
      {
        ...valid,
        target: { kind: "conversation", clientId: "../../admin", requiresFeedback: false },
      },
      { ...valid, target: { kind: "anything", url: "http://evil.example/" } },
      { ...valid, idempotencyKey: "" },
      { ...valid, uploadId: undefined },
      "just a string",
    ];
    for (const args of bad) {
      await expect(fake.ipcMain.invoke(IpcChannels.uploadFile, APP_PAGE, args)).rejects.toThrow(
        /IPC refused: bad arguments/,
      );
    }
    await expect(
      fake.ipcMain.invoke(IpcChannels.uploadFile, APP_PAGE, valid, "second argument"),
    ).rejects.toThrow("takes one argument");
    await expect(
      fake.ipcMain.invoke(IpcChannels.cancelUpload, "https://evil.example/", "u2"),
    ).rejects.toThrow("not from the app");
    expect(proxy.requests).toEqual([]);
    expect(chunkSizes).toEqual([]);
  });

  it("keeps a name with quotes, line breaks and non-Latin letters, escaped as a browser does", async () => {
    const result = await upload(fileOnDisk('Say "hi"\r\nnext 名前.pdf', pdfOfSize(3000)));
    // Browsers send " CR LF in a multipart file name as %22 %0D %0A (HTML's form encoding).
    expect(result).toMatchObject({
      outcome: "uploaded",
      body: { fileName: "Say %22hi%22%0D%0Anext 名前.pdf" },
    });
    expect(openFiles.size).toBe(0);
  });

  it("sends the app session's cookies and keeps the cookie the server sets (its session renewal)", async () => {
    const seen: (string | undefined)[] = [];
    const cookieServer = http.createServer((req, res) => {
      seen.push(req.headers.cookie);
      req.resume();
      req.on("end", () => {
        res.writeHead(201, {
          "Content-Type": "application/json",
          "Set-Cookie": "sid=renewed; Path=/; Max-Age=3600; HttpOnly",
        });
        res.end(JSON.stringify({ id: "m1" }));
      });
    });
    await new Promise<void>((resolve) => cookieServer.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(cookieServer.address() as AddressInfo).port}`;
      const app = createFakeElectron();
      const session = app.session.fromPartition("clientdesk");
      await session.cookies.set({ url, name: "sid", value: "first" });
      const uploader = createFileUploader({ serverUrl: url, net: app.net, session });
      const input = {
        uploadId: "cookies",
        filePath: fileOnDisk("Cookies.pdf", pdfOfSize(2000)),
        target: { kind: "conversation" as const, clientId, requiresFeedback: false },
        idempotencyKey: randomUUID(),
      };
      expect(await uploader.upload(input, () => {})).toMatchObject({ outcome: "uploaded" });
      expect(session.cookies.jar.get("sid")?.value).toBe("renewed");
      expect(await uploader.upload(input, () => {})).toMatchObject({ outcome: "uploaded" });
      expect(seen).toEqual(["sid=first", "sid=renewed"]);
    } finally {
      cookieServer.closeAllConnections();
      await new Promise<void>((resolve) => cookieServer.close(() => resolve()));
    }
  });

  it("hears a server that refuses before reading the body, also when the failed write is reported first (403 with its message), every time", async () => {
    // Answers before reading the body. It then drains the body and keeps the connection
    // rather than close it: closing with the body still arriving resets the connection, and a
    // reset may throw the answer away in the kernel, so whether it is heard would depend on
    // timing. The order Chromium may report instead (the failed write first) is played below.
    const refusing = http.createServer((req, res) => {
      res.writeHead(403, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ message: "You can't upload to this conversation" }));
      req.resume();
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
      const app = createFakeElectron();
      const directly = createFileUploader({
        serverUrl: url,
        net: app.net,
        session: app.session.fromPartition("clientdesk"),
        fs: countingFs,
      });
      // Chromium may report the failed write (the connection closed) before the answer that
      // came first: here the request fails, and the answer is handed over 200 ms later.
      const answerLate = createFileUploader({
        serverUrl: url,
        net: {
          request(requestOptions) {
            const request = app.net.request(requestOptions);
            const once = request.once.bind(request);
            request.once = ((event: string, listener: (...args: unknown[]) => void) =>
              event === "response"
                ? once(event, (response) => {
                    request.emit("error", new Error("net::ERR_CONNECTION_RESET"));
                    setTimeout(() => listener(response), 200);
                  })
                : once(event, listener)) as typeof request.once;
            return request as unknown as UploadClientRequest;
          },
        },
        session: app.session.fromPartition("clientdesk"),
        fs: countingFs,
      });
      const filePath = fileOnDisk("Refused early.pdf", pdfOfSize(9 * MB));
      for (const [attempt, uploader] of [
        ...Array.from({ length: 5 }, () => directly),
        ...Array.from({ length: 5 }, () => answerLate),
      ].entries()) {
        const result = await uploader.upload(
          {
            uploadId: `early-${attempt}`,
            filePath,
            target: { kind: "conversation", clientId, requiresFeedback: false },
            idempotencyKey: randomUUID(),
          },
          () => {},
        );
        expect(result).toMatchObject({
          outcome: "failed",
          status: 403,
          message: "You can't upload to this conversation",
        });
      }
      expect(openFiles.size).toBe(0);
    } finally {
      refusing.closeAllConnections();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });

  it("cancels a page's uploads when the page navigates away, crashes or is closed, not on its own route changes", async () => {
    const page = fake.ipcMain.sender;
    let release = () => {};
    const startGated = () => {
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const uploadId = randomUUID();
      return upload(fileOnDisk(`${uploadId}.pdf`, pdfOfSize(4 * MB)), { uploadId });
    };
    for (const leave of [
      () => page.emit("did-start-navigation", { isMainFrame: true, isSameDocument: false }),
      () => page.emit("render-process-gone", {}, { reason: "crashed" }),
      () => page.emit("destroyed"),
    ]) {
      fake.ipcMain.sender.sent.length = 0;
      const running = startGated();
      await expect.poll(() => progressEvents().length).toBeGreaterThan(0);
      leave();
      release();
      expect(await running).toEqual({ outcome: "cancelled" });
    }
    // A route change inside the app (same document) or a frame's navigation: it finishes.
    fake.ipcMain.sender.sent.length = 0;
    const staying = startGated();
    await expect.poll(() => progressEvents().length).toBeGreaterThan(0);
    page.emit("did-start-navigation", { isMainFrame: true, isSameDocument: true });
    page.emit("did-start-navigation", { isMainFrame: false, isSameDocument: false });
    release();
    expect(await staying).toMatchObject({ outcome: "uploaded" });
    gate = null;
    await expect.poll(() => openFiles.size).toBe(0);
  });
});
