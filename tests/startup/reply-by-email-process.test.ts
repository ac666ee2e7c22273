import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectionUrl, type Database } from "../../server/db/connection";
import { testDatabase, usingPostgres } from "../support/database";
import {
  ensureServerBuilt,
  freePort,
  type ServerProcess,
  startServerProcess,
} from "../support/server-process";
import { TestSmtpServer } from "../support/smtp";

/**
 * The built server (as `npm start` runs it) with INBOUND_SMTP_PORT and INBOUND_EMAIL_DOMAIN:
 * it listens for replies on that port (25 MB announced), refuses what is not a reply address,
 * and closes the port when it drains. Replies themselves: server/inbound/reply-by-email.test.ts.
 */
let smtp: TestSmtpServer;
let db: Database | undefined;
let dataDir: string;
let server: ServerProcess | undefined;
let inboundPort: number;

beforeAll(async () => {
  ensureServerBuilt();
  smtp = new TestSmtpServer();
  await smtp.start();
  if (usingPostgres) db = await testDatabase({ isolated: true });
  dataDir = mkdtempSync(path.join(os.tmpdir(), "clientdesk-inbound-"));
  inboundPort = await freePort();
  server = await startServerProcess({
    dataDir,
    env: {
      DATABASE_URL: db ? (connectionUrl(db) as string) : "",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      BILLING_MODE: "off",
      SESSION_SECRET: "inbound-test-secret-inbound-test-secret",
      LOG_LEVEL: "info",
      INBOUND_SMTP_PORT: String(inboundPort),
      INBOUND_EMAIL_DOMAIN: "reply.example.com",
      // Production takes replies only with the relay's verdict (server/inbound/smtp-listener.test.ts).
      INBOUND_AUTHSERV_ID: "mx.example.com",
    },
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.stop();
  await db?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The server's answer to EHLO, read line by line up to its last one. */
function ehlo(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    let greeted = false;
    socket.on("data", (chunk) => {
      received += chunk.toString();
      if (!greeted && /^220 .*\r\n/m.test(received)) {
        greeted = true;
        received = "";
        socket.write("EHLO test.example\r\n");
      } else if (greeted && /^250 .*\r\n/m.test(received)) {
        socket.end("QUIT\r\n");
        resolve(received);
      }
    });
    socket.on("error", reject);
  });
}

it("listens for replies on INBOUND_SMTP_PORT, authenticated by INBOUND_AUTHSERV_ID, announcing the 25 MB limit and no AUTH", async () => {
  // The built server's log is buffered (server/log-destination.ts): the line comes soon after.
  await expect
    .poll(() => server!.output())
    .toContain(
      `reply by email: SMTP listening on port ${inboundPort}, taking replies authenticated by mx.example.com`,
    );
  const answer = await ehlo(inboundPort);
  expect(answer).toContain("SIZE 26214400");
  expect(answer).not.toContain("AUTH");
  expect(answer).not.toContain("STARTTLS");
});

it("refuses an address that is no reply address at RCPT with 550", async () => {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: inboundPort,
    ignoreTLS: true,
  });
  const error = await transport
    .sendMail({
      from: "carla@example.com",
      to: `reply+${"a".repeat(32)}@reply.example.com`,
      subject: "Re: New message",
      text: "Hello",
    })
    .then(
      () => null,
      (failure: { responseCode: number }) => failure,
    );
  transport.close();
  expect(error?.responseCode).toBe(550);
});

it("closes the port when it drains, and exits 0", async () => {
  const exit = await server!.stop();
  expect(exit).toMatchObject({ code: 0 });
  const refused = await new Promise<boolean>((resolve) => {
    const socket = net.connect(inboundPort, "127.0.0.1");
    socket.on("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.on("error", () => resolve(true));
  });
  expect(refused).toBe(true);
});
