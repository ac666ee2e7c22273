import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "../../server/db/connection";
import { migrations } from "../../server/migrations";
import {
  ensureServerBuilt,
  type ServerProcess,
  startServerProcess,
} from "../support/server-process";
import { TestSmtpServer } from "../support/smtp";
import { TcpProxy } from "../support/tcp-proxy";
import { type EmptyPostgres, emptyPostgres } from "../support/database";

const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) {
  // PGlite belongs to one process: several instances need PostgreSQL.
  console.info("instances-start-together.test.ts: skipped (needs TEST_DATABASE_URL, PostgreSQL)");
}

/**
 * Three built servers started at the same moment on one empty PostgreSQL database: the
 * migrations run once, under an advisory lock, and all three come up ready. They reach the
 * database through a TCP proxy held frozen until all three have connected, so that they
 * really do arrive together (spawned processes otherwise start a few hundred ms apart, and
 * the first would be done before the others looked).
 */
describe.skipIf(!postgresUrl)("three instances starting together on an empty database", () => {
  let scratch: EmptyPostgres;
  let db: Database;
  let url: string;
  let proxy: TcpProxy;
  let smtp: TestSmtpServer;
  const dataDirs: string[] = [];
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    ensureServerBuilt();
    scratch = await emptyPostgres(postgresUrl!, "test_start_together");
    url = scratch.url;
    db = createDatabase({ url, poolMax: 1 });
    const through = await TcpProxy.inFrontOf(url);
    proxy = through.proxy;
    url = through.url;
    smtp = new TestSmtpServer();
    await smtp.start();
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await smtp?.stop();
    await proxy?.close();
    await db?.destroy();
    await scratch?.drop();
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
    proxy.pause();
    const starting = Promise.allSettled([start(), start(), start()]);
    // Each has opened its first connection (held by the frozen proxy): let them all through.
    await expect.poll(() => proxy.connections, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    await proxy.resume();
    const started = await starting;
    servers = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    const failures = started.flatMap((result) =>
      result.status === "rejected" ? [String(result.reason)] : [],
    );
    expect(failures).toEqual([]);

    for (const server of servers) {
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status, server.output().slice(-2000)).toBe(200);
    }
    const applied = await db("knex_migrations").select("name");
    expect(applied.map((row: { name: string }) => row.name).sort()).toEqual(
      Object.keys(migrations).sort(),
    );
  }, 180_000);
});
