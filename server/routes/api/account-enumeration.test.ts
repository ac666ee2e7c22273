import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentFromIp, addJoinedClient, freshIp } from "../../../tests/support/conversations";
import { testDatabase } from "../../../tests/support/database";
import { signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import type { TestClock } from "../../../tests/support/clock";
import type { Database } from "../../db/connection";
import { RETRY_DELAYS_MS } from "../../mail/outbox";

// Forgot-password, resend-verification and the client sign-in link must not tell who has an
// account: not by their answer, not past any cap, not after a restart, and not by answering
// only once the mail is out (their time). Their timing is measured in `npm run bench --
// account-enumeration`; here, that the answer does not wait for the mail.

let db: Database;
let server: TestServer;
beforeAll(async () => {
  db = await testDatabase();
  // Rate-limit tests call from their own addresses through X-Forwarded-For.
  server = await startTestServer({ db, env: { TRUST_PROXY: "true" } });
});
afterAll(async () => {
  await server?.close();
  await db?.destroy();
});

const fromNewIp = () => new AgentFromIp(server.url, freshIp());

const ENDPOINTS = [
  "/api/forgot-password",
  "/api/resend-verification",
  "/api/client-sign-in-link",
] as const;
type Endpoint = (typeof ENDPOINTS)[number];

/** An address each endpoint would mail: a verified owner, an unverified owner, a joined client. */
async function knownAddresses(): Promise<Record<Endpoint, string>> {
  const owner = await signUpOwner(server);
  const unverified = uniqueEmail("unverified");
  const registered = await server.agent().post("/api/register", {
    email: unverified,
    password: "secret123",
    fullName: "Una Verified",
    role: "owner",
    accountTier: "free",
  });
  expect(registered.status).toBe(201);
  await server.smtp.waitFor(unverified);
  const client = await addJoinedClient(server, owner);
  return {
    "/api/forgot-password": owner.email,
    "/api/resend-verification": unverified,
    "/api/client-sign-in-link": client.email,
  };
}

/** A new app on the same database: the in-memory limits are gone, the rows are not. */
async function restart() {
  await server.close();
  server = await startTestServer({ db, env: { TRUST_PROXY: "true" } });
}

const answer = async (endpoint: Endpoint, email: string) => {
  const response = await fromNewIp().post(endpoint, { email });
  return { status: response.status, body: response.body };
};

describe("mail to an address goes out after the answer", () => {
  it.each(ENDPOINTS)(
    "%s answers while the mail is still held at the SMTP server",
    async (endpoint) => {
      const known = (await knownAddresses())[endpoint];
      await server.services.events.idle();
      await server.services.afterAnswer.idle();
      const before = server.smtp.mailsTo(known).length;
      const release = server.smtp.hold();
      try {
        const asked = await fromNewIp().post(endpoint, { email: known });
        expect(asked.status).toBe(200);
        expect(server.smtp.mailsTo(known)).toHaveLength(before);
      } finally {
        release();
      }
      await expect.poll(() => server.smtp.mailsTo(known).length).toBe(before + 1);
    },
  );
});

describe("mail the answer promised is not lost to a hiccup", () => {
  it("tries a refused reset mail again", async () => {
    const owner = await signUpOwner(server);
    server.smtp.refuseNext = 1;
    const asked = await fromNewIp().post("/api/forgot-password", { email: owner.email });
    expect(asked.status).toBe(200);
    await server.mailSettled();
    expect(server.smtp.refuseNext).toBe(0);
    const resets = () =>
      server.smtp.mailsTo(owner.email).filter((m) => m.subject.includes("reset"));
    expect(resets()).toHaveLength(0);
    // The outbox tries again after its first wait.
    (server.clock as TestClock).advance(RETRY_DELAYS_MS[0]);
    await server.jobs.runOnce("mail-outbox");
    expect(resets()).toHaveLength(1);
    expect(resets()[0]?.text).toMatch(/\b\d{6}\b/);
  });
});

describe("the same answer for every address", () => {
  it.each(ENDPOINTS)(
    "%s: alike for known and unknown, past the cap and after a restart",
    async (endpoint) => {
      const known = (await knownAddresses())[endpoint];
      const unknown = uniqueEmail("nobody");
      // Signing up counted against the address's mail limit too; start both from nothing.
      await restart();

      // Six requests: five within the per-address limit, the sixth past it, alike for both.
      for (let i = 0; i < 6; i += 1) {
        const forKnown = await answer(endpoint, known);
        const forUnknown = await answer(endpoint, unknown);
        expect(forKnown.status).toBe(i < 5 ? 200 : 429);
        expect(forUnknown).toEqual(forKnown);
      }

      // A restart forgets the in-memory limits but not the codes already issued: the per-account
      // cap must still not show.
      await restart();
      for (let i = 0; i < 3; i += 1) {
        const forKnown = await answer(endpoint, known);
        const forUnknown = await answer(endpoint, unknown);
        expect(forKnown.status).toBe(200);
        expect(forUnknown).toEqual(forKnown);
      }
      await server.mailSettled();
      expect(server.smtp.mailsTo(unknown)).toHaveLength(0);
      if (endpoint !== "/api/client-sign-in-link") {
        // Past the cap of five codes an hour the known address is silently sent nothing.
        expect(server.smtp.mailsTo(known)).toHaveLength(0);
      } else {
        // Links have no such cap: each request mails a new one.
        expect(server.smtp.mailsTo(known)).toHaveLength(3);
      }
    },
  );

  it("answers a malformed address with 400 before anything else", async () => {
    for (const endpoint of ENDPOINTS) {
      const response = await fromNewIp().post(endpoint, { email: "not-an-address" });
      expect(response.status).toBe(400);
      expect(typeof response.body.message).toBe("string");
    }
  });
});
