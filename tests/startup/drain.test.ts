import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CLOSE_CODES } from "../../shared/realtime";
import { connectionUrl, type Database } from "../../server/db/connection";
import { addClient } from "../support/conversations";
import { testDatabase, usingPostgres } from "../support/database";
import { signUpOwner } from "../support/factories";
import { TestAgent, type TestServer } from "../support/server";
import {
  ensureServerBuilt,
  type ServerProcess,
  startServerProcess,
} from "../support/server-process";
import { TestSmtpServer } from "../support/smtp";
import { pdfOfSize, storedKeys } from "../support/storage-files";
import { TestSocket, upgradeStatus } from "../support/ws-client";

/**
 * SIGTERM on the built server (a real process): readiness turns 503 at once, the upload under
 * way finishes and is kept, the websocket is told to reconnect at once (1012), and the
 * process exits 0 well within its 10 s deadline.
 */
let smtp: TestSmtpServer;
let db: Database | undefined;
let dataDir: string;
let server: ServerProcess | undefined;

beforeAll(async () => {
  ensureServerBuilt();
  smtp = new TestSmtpServer();
  await smtp.start();
  if (usingPostgres) db = await testDatabase({ isolated: true });
  dataDir = mkdtempSync(path.join(os.tmpdir(), "clientdesk-drain-"));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  await db?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** An upload of `data` whose first part is sent now; finish() sends the rest and resolves with the answer. */
function slowUpload(url: string, cookie: string, clientId: string, data: Buffer) {
  const boundary = `Drain${randomBytes(6).toString("hex")}`;
  const finishers: (() => void)[] = [];
  const answer = new Promise<{ status: number; body: string; connection?: string }>(
    (resolve, reject) => {
      const request = http.request(new URL(`/api/clients/${clientId}/upload`, url), {
        method: "POST",
        headers: {
          cookie,
          origin: url,
          "content-type": `multipart/form-data; boundary=${boundary}`,
        },
      });
      request.on("error", reject);
      request.on("response", (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          body += chunk;
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            body,
            connection: response.headers.connection,
          }),
        );
      });
      request.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
          "Content-Type: application/pdf\r\n\r\n",
      );
      const half = Math.floor(data.length / 2);
      request.write(data.subarray(0, half));
      finishers.push(() =>
        request.end(Buffer.concat([data.subarray(half), Buffer.from(`\r\n--${boundary}--\r\n`)])),
      );
    },
  );
  // An upload never finished is cut when the process exits: not an error of the test's.
  answer.catch(() => undefined);
  return {
    finish() {
      for (const finish of finishers) finish();
      return answer;
    },
  };
}

/** The built server on this file's data (PGlite in DATA_DIR, or its own PostgreSQL database). */
async function start(): Promise<ServerProcess> {
  server = await startServerProcess({
    dataDir,
    env: {
      DATABASE_URL: db ? (connectionUrl(db) as string) : "",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      BILLING_MODE: "off",
      SESSION_SECRET: "drain-test-secret-drain-test-secret-42",
      LOG_LEVEL: "info",
    },
  });
  return server;
}

/** The owner's session cookie and conversation, kept across restarts (same data, same secret). */
let cookie: string;
let clientId: string;

it("drains on SIGTERM: readyz 503, the upload under way completes, sockets get 1012, exit 0 within 10 s", async () => {
  const running = await start();
  const asTestServer = {
    url: running.url,
    agent: () => new TestAgent(running.url),
    smtp,
  } as unknown as TestServer;
  const owner = await signUpOwner(asTestServer);
  const client = await addClient(owner);
  cookie = owner.agent.cookieHeader;
  clientId = client.id;
  expect((await fetch(`${running.url}/readyz`)).status).toBe(200);

  const socket = await TestSocket.open(running.url, { cookie });
  const data = pdfOfSize(3 * 1024 * 1024);
  const upload = slowUpload(running.url, cookie, client.id, data);
  // The server is writing the file: the request is under way.
  await expect
    .poll(() => storedKeys(dataDir).some((key) => key.endsWith(".partial")), { timeout: 30_000 })
    .toBe(true);

  const signalled = performance.now();
  running.child.kill("SIGTERM");

  // The socket is told to reconnect at once.
  expect((await socket.waitForClose(5_000)).code).toBe(CLOSE_CODES.resync);
  // Readiness says draining (the balancer stops sending work here); each answer closes its connection.
  const ready = await fetch(`${running.url}/readyz`);
  expect(ready.status).toBe(503);
  expect(ready.headers.get("connection")).toBe("close");
  expect(await ready.json()).toEqual({ status: "draining", message: "Shutting down" });
  // A new socket is refused: the browser goes to another instance.
  expect(await upgradeStatus(running.url, { cookie })).toBe(503);
  expect(running.child.exitCode).toBeNull();

  // The upload under way finishes and is kept.
  const answer = await upload.finish();
  expect(answer.status, answer.body).toBe(201);
  expect(answer.connection).toBe("close");
  expect(JSON.parse(answer.body)).toMatchObject({ fileSize: data.length });

  expect(await running.exited).toEqual({ code: 0, signal: null });
  const drainMs = performance.now() - signalled;
  expect(drainMs).toBeLessThan(10_000);
  console.info(
    `drain: SIGTERM to exit 0 in ${Math.round(drainMs)} ms (the upload finished by the test on the way)`,
  );
  const lines = running
    .output()
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  const messages = lines.map((line) => line.msg);
  // The upload was answered during the drain, and the log ends with the exit.
  const drainStart = messages.indexOf("shutting down");
  expect(drainStart).toBeGreaterThan(-1);
  expect(
    lines.slice(drainStart).some((line) => line.msg === "request" && line.status === 201),
  ).toBe(true);
  expect(messages.at(-1)).toBe("stopped");
}, 180_000);

it("exits 1 when the drain outlasts its 10 s deadline (an upload that never ends)", async () => {
  const running = await start();
  slowUpload(running.url, cookie, clientId, pdfOfSize(1024 * 1024));
  const partials = () => storedKeys(dataDir).filter((key) => key.endsWith(".partial")).length;
  await expect.poll(partials, { timeout: 30_000 }).toBeGreaterThan(0);
  const signalled = performance.now();
  running.child.kill("SIGTERM");
  expect(await running.exited).toEqual({ code: 1, signal: null });
  const waited = performance.now() - signalled;
  expect(waited).toBeGreaterThanOrEqual(9_900);
  expect(waited).toBeLessThan(13_000);
  expect(running.output()).toContain('"msg":"drain too slow: exiting"');
}, 180_000);
