import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionUrl, type Database } from "../../server/db/connection";
import { testDatabase, usingPostgres } from "../support/database";
import { openSmtpConnection } from "../support/inbound-mail";
import {
  ensureServerBuilt,
  freePort,
  serverBundle,
  startServerProcess,
} from "../support/server-process";
import { TestSmtpServer } from "../support/smtp";

/**
 * The built server as an operator runs it: it listens where HOST (HTTP, and by default SMTP)
 * and INBOUND_SMTP_HOST say, and a port it cannot take stops start-up with one line on
 * stderr and exit code 1, never a stack trace. The tests run one after the other on one
 * data directory (the embedded database is migrated once).
 */
const root = path.resolve(import.meta.dirname, "../..");

let smtp: TestSmtpServer;
let db: Database | undefined;
let dataDir: string;

beforeAll(async () => {
  ensureServerBuilt();
  smtp = new TestSmtpServer();
  await smtp.start();
  if (usingPostgres) db = await testDatabase({ isolated: true });
  dataDir = mkdtempSync(path.join(os.tmpdir(), "clientdesk-listen-"));
}, 120_000);
afterAll(async () => {
  await smtp?.stop();
  await db?.destroy();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function baseEnv(): Record<string, string> {
  return {
    DATABASE_URL: db ? (connectionUrl(db) as string) : "",
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    BILLING_MODE: "off",
    SESSION_SECRET: "listen-test-secret-listen-test-secret",
    LOG_LEVEL: "info",
  };
}

const replyByEmail = (port: number) => ({
  INBOUND_SMTP_PORT: String(port),
  INBOUND_EMAIL_DOMAIN: "reply.example.com",
  INBOUND_AUTHSERV_ID: "mx.example.com",
});

/** Runs the built server (NODE_ENV=production) until it exits by itself. */
function runUntilExit(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [serverBundle], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", DATA_DIR: dataDir, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A port held by another process's listener on every interface, as a second instance would. */
async function occupiedPort(): Promise<{ port: number; release(): Promise<void> }> {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, resolve));
  return {
    port: (holder.address() as net.AddressInfo).port,
    release: () => new Promise((resolve) => holder.close(() => resolve())),
  };
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.on("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

/** Whether an SMTP client gets the listener's greeting and EHLO answer at host:port. */
async function smtpAnswers(host: string, port: number): Promise<boolean> {
  return openSmtpConnection(port, host).then(
    ({ connection }) => {
      connection.quit();
      return true;
    },
    () => false,
  );
}

describe("a port in use", () => {
  // Migrating a fresh PGlite database on a busy machine can take half a minute.
  it("PORT: stops start-up with one line and exit 1", { timeout: 120_000 }, async () => {
    const held = await occupiedPort();
    try {
      const started = await runUntilExit({ ...baseEnv(), PORT: String(held.port) });
      expect(started.stderr).toBe(`listen error: PORT ${held.port} is in use\n`);
      expect(started.code).toBe(1);
      expect(started.stdout).not.toContain("listening");
    } finally {
      await held.release();
    }
  });

  it("INBOUND_SMTP_PORT: stops start-up with one line and exit 1", {
    timeout: 120_000,
  }, async () => {
    const held = await occupiedPort();
    try {
      const started = await runUntilExit({
        ...baseEnv(),
        PORT: String(await freePort()),
        ...replyByEmail(held.port),
      });
      expect(started.stderr).toBe(`listen error: INBOUND_SMTP_PORT ${held.port} is in use\n`);
      expect(started.code).toBe(1);
      expect(started.stdout).not.toContain("SMTP listening");
    } finally {
      await held.release();
    }
  });
});

describe("listening addresses", () => {
  it("HOST: HTTP and reply-by-email SMTP on that address only", { timeout: 120_000 }, async () => {
    const inboundPort = await freePort();
    const server = await startServerProcess({
      dataDir,
      host: "127.0.0.2",
      env: { ...baseEnv(), HOST: "127.0.0.2", ...replyByEmail(inboundPort) },
    });
    try {
      const port = Number(new URL(server.url).port);
      expect((await fetch(`http://127.0.0.2:${port}/healthz`)).status).toBe(200);
      expect(await connects("127.0.0.1", port)).toBe(false);
      await expect.poll(() => smtpAnswers("127.0.0.2", inboundPort)).toBe(true);
      expect(await connects("127.0.0.1", inboundPort)).toBe(false);
      await expect
        .poll(() => server.output())
        .toContain(`ClientDesk listening on http://127.0.0.2:${port}`);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it("INBOUND_SMTP_HOST: SMTP on its own address", { timeout: 120_000 }, async () => {
    const inboundPort = await freePort();
    const server = await startServerProcess({
      dataDir,
      host: "127.0.0.2",
      env: {
        ...baseEnv(),
        HOST: "127.0.0.2",
        INBOUND_SMTP_HOST: "127.0.0.3",
        ...replyByEmail(inboundPort),
      },
    });
    try {
      await expect.poll(() => smtpAnswers("127.0.0.3", inboundPort)).toBe(true);
      expect(await connects("127.0.0.2", inboundPort)).toBe(false);
      expect(await connects("127.0.0.1", inboundPort)).toBe(false);
    } finally {
      expect(await server.stop()).toEqual({ code: 0, signal: null });
    }
  });
});
