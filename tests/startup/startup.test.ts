import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureServerBuilt, freePort, serverBundle as bundle } from "../support/server-process";
import { TestSmtpServer } from "../support/smtp";

/**
 * The built server as an operator runs it (`node` on the bundle), with NODE_ENV=production:
 * each refusal stops start-up with exit code 1 and its one line on stderr, before anything
 * is served; a complete configuration comes up and answers /healthz.
 */
const root = path.resolve(import.meta.dirname, "../..");
const SMTP_URL = "smtp://127.0.0.1:2525";

let dataDir: string;

beforeAll(async () => {
  ensureServerBuilt();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "clientdesk-startup-"));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Started {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Only what the test names (plus PATH): nothing of this process's environment leaks in. */
function serverEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    NODE_ENV: "production",
    DATA_DIR: dataDir,
    SESSION_SECRET: "startup-test-secret-startup-test-secret",
    ...env,
  };
}

/** Runs the server until it exits by itself (a refusal). */
function runUntilExit(env: Record<string, string>): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundle], { env: serverEnv(env), cwd: root });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("start-up in production refuses, with one line", () => {
  const cases: [string, Record<string, string>, string][] = [
    [
      "no billing mode and no Stripe keys",
      { SMTP_URL },
      "config error: BILLING_MODE: set stripe (with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET), test or off",
    ],
    [
      "Stripe without its webhook secret",
      { SMTP_URL, STRIPE_SECRET_KEY: "sk_test_x" },
      "config error: BILLING_MODE: stripe needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET",
    ],
    [
      "no SMTP_URL",
      { BILLING_MODE: "off" },
      "config error: SMTP_URL: required in production (codes and sign-in links go by mail)",
    ],
    [
      "an https APP_URL without TRUST_PROXY",
      { SMTP_URL, BILLING_MODE: "off", APP_URL: "https://desk.example.com" },
      "config error: TRUST_PROXY: APP_URL is https, so a TLS proxy is in front: set TRUST_PROXY=true (secure cookies need it)",
    ],
    [
      "an S3 access key without its secret",
      { SMTP_URL, BILLING_MODE: "off", S3_BUCKET: "files", S3_ACCESS_KEY_ID: "key" },
      "config error: S3_SECRET_ACCESS_KEY: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the SDK's own credentials)",
    ],
    [
      "reply by email without INBOUND_AUTHSERV_ID (nor INBOUND_AUTH=off)",
      {
        SMTP_URL,
        BILLING_MODE: "off",
        INBOUND_SMTP_PORT: "2525",
        INBOUND_EMAIL_DOMAIN: "reply.example.com",
      },
      "config error: INBOUND_AUTHSERV_ID: required in production with reply by email (the authserv-id of your relay's Authentication-Results), or set INBOUND_AUTH=off to take unauthenticated replies",
    ],
  ];
  for (const [what, env, line] of cases) {
    it(what, async () => {
      const started = await runUntilExit(env);
      expect(started.code).toBe(1);
      expect(started.stderr).toBe(`${line}\n`);
      expect(started.stdout).toBe("");
    });
  }
});

describe("start-up in production with a complete configuration", () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = new TestSmtpServer();
    await smtp.start();
  });
  afterAll(() => smtp?.stop());

  // Migrating a fresh PGlite database on a busy machine can take half a minute.
  for (const mode of ["off"] as const) {
    it(`comes up with BILLING_MODE=${mode}, answers /healthz and says its mode`, {
      timeout: 120_000,
    }, async () => {
      const port = await freePort();
      const database: Record<string, string> = process.env.TEST_DATABASE_URL
        ? { DATABASE_URL: process.env.TEST_DATABASE_URL }
        : {};
      const child = spawn(process.execPath, [bundle], {
        env: serverEnv({
          ...database,
          PORT: String(port),
          BILLING_MODE: mode,
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          DATA_DIR: path.join(dataDir, mode),
        }),
        cwd: root,
      });
      let stderr = "";
      child.stderr.on("data", (chunk) => (stderr += chunk));
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      try {
        const url = `http://127.0.0.1:${port}`;
        await expect
          .poll(
            () =>
              fetch(`${url}/healthz`).then(
                (answer) => answer.status,
                () => 0,
              ),
            { timeout: 90_000 },
          )
          .toBe(200);
        const answer = await fetch(`${url}/api/billing-mode`);
        expect(await answer.json()).toEqual({ mode });
      } finally {
        child.kill("SIGTERM");
      }
      expect(await exited).toBe(0);
      expect(stderr).toBe("");
    });
  }
});
