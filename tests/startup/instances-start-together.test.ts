import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../server/db/connection";
import { migrations } from "../../server/migrations";
import { ensureServerBuilt, type ServerProcess, startServerProcess } from "../support/server-process";
import { TestSmtpServer } from "../support/smtp";

const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) {
  // PGlite belongs to one process: several instances need PostgreSQL.
  console.info("instances-start-together.test.ts: skipped (needs TEST_DATABASE_URL, PostgreSQL)");
}

/**
 * Three built servers started at the same moment on one empty PostgreSQL database: the
 * migrations run once, under an advisory lock, and all three come up ready.
 */
describe.skipIf(!postgresUrl)("three instances starting together on an empty database", () => {
  const name = `test_start_together_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  let admin: Database;
  let db: Database;
  let url: string;
  let smtp: TestSmtpServer;
  const dataDirs: string[] = [];
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    ensureServerBuilt();
    admin = createDatabase({ url: postgresUrl!, poolMax: 1 });
    await admin.raw(`create database "${name}"`);
    const target = new URL(postgresUrl!);
    target.pathname = `/${name}`;
    url = target.toString();
    db = createDatabase({ url, poolMax: 1 });
    smtp = new TestSmtpServer();
    await smtp.start();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await smtp?.stop();
    await db?.destroy();
    await admin?.raw(`drop database if exists "${name}" with (force)`);
    await admin?.destroy();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it("all come up ready, and every migration ran exactly once", async () => {
    const start = () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "clientdesk-together-"));
      dataDirs.push(dataDir);
      return startServerProcess({
        dataDir,
        env: {
          DATABASE_URL: url,
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          BILLING_MODE: "off",
          SESSION_SECRET: "together-test-secret-together-test-secret",
          LOG_LEVEL: "info",
        },
      });
    };
    const started = await Promise.allSettled([start(), start(), start()]);
    servers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    const failures = started.flatMap((result) => (result.status === "rejected" ? [String(result.reason)] : []));
    expect(failures).toEqual([]);

    for (const server of servers) {
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status, server.output().slice(-2000)).toBe(200);
    }
    const applied = await db("knex_migrations").select("name");
    expect(applied.map((row: { name: string }) => row.name).sort()).toEqual(Object.keys(migrations).sort());
  }, 180_000);
});
