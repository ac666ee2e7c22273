import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../tests/support/clock";
import { AgentFromIp, freshIp } from "../../tests/support/conversations";
import { testDatabase, usingPostgres } from "../../tests/support/database";
import { uniqueEmail } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import type { Database } from "../db/connection";
import { RATE_LIMITS_TABLE } from "../security/rate-limiter";

const JOB = "rate-limits-cleanup";
const prefix = `cleanup-${randomUUID()}`;
let db: Database;
let server: TestServer;
let clock: TestClock;

beforeAll(async () => {
  // The job deletes what has ended by the server's clock, which this test moves by an hour:
  // other files' windows on the shared database would go with it, so a database of its own.
  db = await testDatabase({ isolated: true });
  server = await startTestServer({ db, env: { TRUST_PROXY: "true" }, rateLimitKeyPrefix: prefix });
  clock = server.clock as TestClock;
});
afterAll(async () => {
  await server?.close();
  await db?.destroy();
});

/** This server's windows in the table, by limit name (the part of the key after the prefix). */
async function storedWindows(): Promise<string[]> {
  const rows: { key: string }[] = await db(RATE_LIMITS_TABLE)
    .where("key", "like", `${prefix}:%`)
    .select("key");
  return rows.map((row) => row.key.slice(prefix.length + 1).split(":")[0] as string).sort();
}

describe.skipIf(!usingPostgres)("the rate-limits cleanup job (PostgreSQL)", () => {
  it("deletes the windows that have ended and keeps the running ones, which still limit", async () => {
    const email = uniqueEmail("cleanup");
    const caller = new AgentFromIp(server.url, freshIp());
    // A 15-minute window (sign-in per IP and per account) and hour-long ones (mail).
    expect(
      (await caller.post("/api/login", { username: email, password: "wrong-guess" })).status,
    ).toBe(401);
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await new AgentFromIp(server.url, freshIp()).post("/api/forgot-password", { email }))
          .status,
      ).toBe(200);
    }
    expect(await storedWindows()).toEqual([
      "mailPerAddress",
      "mailPerIp",
      "mailPerIp",
      "mailPerIp",
      "mailPerIp",
      "mailPerIp",
      "signInFailuresPerAccount",
      "signInPerIp",
    ]);

    await server.jobs.runOnce(JOB);
    expect(await storedWindows()).toHaveLength(8);

    clock.advanceMinutes(16);
    await server.jobs.runOnce(JOB);
    expect(await storedWindows()).toEqual([
      "mailPerAddress",
      "mailPerIp",
      "mailPerIp",
      "mailPerIp",
      "mailPerIp",
      "mailPerIp",
    ]);
    // The address's hour is not over: its sixth mail is still refused.
    const sixth = await new AgentFromIp(server.url, freshIp()).post("/api/forgot-password", {
      email,
    });
    expect(sixth.status).toBe(429);

    clock.advanceMinutes(45);
    await server.jobs.runOnce(JOB);
    // The sixth request's own per-IP window (by the wall clock, just begun) ended by the server's clock too.
    expect(await storedWindows()).toEqual([]);
  });
});

describe.skipIf(usingPostgres)("the rate-limits cleanup job (PGlite)", () => {
  it("runs and finds nothing: the limits are counted in process", async () => {
    const caller = new AgentFromIp(server.url, freshIp());
    expect(
      (await caller.post("/api/forgot-password", { email: uniqueEmail("cleanup") })).status,
    ).toBe(200);
    await server.jobs.runOnce(JOB);
    expect(await storedWindows()).toEqual([]);
  });
});
