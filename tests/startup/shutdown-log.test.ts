import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ensureServerBuilt, startServerProcess } from "../support/server-process";
import { TestSmtpServer } from "../support/smtp";

/**
 * The built server's log is buffered (server/log-destination.ts): the lines it writes on its
 * way out, the last one just before process.exit, must still reach standard output.
 */
let dataDir: string;
let smtp: TestSmtpServer;
beforeAll(async () => {
  ensureServerBuilt();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "clientdesk-shutdown-"));
  smtp = new TestSmtpServer();
  await smtp.start();
});
afterAll(async () => {
  await smtp?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

it("writes every line up to the last on SIGTERM, then exits 0", { timeout: 120_000 }, async () => {
  const server = await startServerProcess({
    dataDir,
    env: {
      DATABASE_URL: process.env.TEST_DATABASE_URL ?? "",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      BILLING_MODE: "off",
      SESSION_SECRET: "shutdown-test-secret-shutdown-test-secret",
      LOG_LEVEL: "info",
    },
  });
  expect((await fetch(`${server.url}/api/billing-mode`)).status).toBe(200);
  expect(await server.stop()).toEqual({ code: 0, signal: null });
  const messages = server
    .output()
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line).msg);
  expect(messages).toContain("request");
  // A job pass under way when the signal came finishes (and logs) during the drain, so
  // "shutting down" need not be the second-to-last line; "stopped" is always the last.
  expect(messages.at(-1)).toBe("stopped");
  expect(messages.indexOf("shutting down")).toBeGreaterThan(messages.lastIndexOf("request"));
});
