import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../tests/support/clock";
import { testDatabase } from "../../tests/support/database";
import { signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { issueDesktopSignInCode } from "../auth/desktop-sign-in-codes";
import type { Database } from "../db/connection";

const JOB = "desktop-sign-in-codes-cleanup";
let db: Database;
let server: TestServer;
let clock: TestClock;

beforeAll(async () => {
  // The job deletes by the server's clock, which this test moves: other files' codes on a
  // shared database would go with it, so a database of its own.
  db = await testDatabase({ isolated: true });
  server = await startTestServer({ db });
  clock = server.clock as TestClock;
});
afterAll(async () => {
  await server?.close();
  await db?.destroy();
});

/** A code as the Google callback's Continue issues it, with the verifier the app would hold. */
async function issued(userId: string) {
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const code = await issueDesktopSignInCode(db, userId, challenge, clock.now());
  return { code, verifier };
}

const storedCodes = async (userId: string) =>
  (await db("desktop_sign_in_codes").where({ userId })).length;

describe("the desktop sign-in codes cleanup job", () => {
  it("deletes the codes past their 2 minutes and keeps the current ones, which still sign in", async () => {
    const owner = await signUpOwner(server);
    await issued(owner.id);
    clock.advance(2 * 60_000 + 1000);
    const current = await issued(owner.id);
    // Issuing does not sweep: the old one waits for the job.
    expect(await storedCodes(owner.id)).toBe(2);

    await server.jobs.runOnce(JOB);
    expect(await storedCodes(owner.id)).toBe(1);

    const app = server.agent();
    const exchange = await app.post("/api/auth/desktop/exchange", {
      code: current.code,
      codeVerifier: current.verifier,
    });
    expect(exchange.status).toBe(200);
    expect(exchange.body.email).toBe(owner.email);
    expect(await storedCodes(owner.id)).toBe(0);

    await server.jobs.runOnce(JOB);
    expect(await storedCodes(owner.id)).toBe(0);
  });
});
