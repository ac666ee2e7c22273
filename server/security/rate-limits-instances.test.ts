import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentFromIp, freshIp } from "../../tests/support/conversations";
import { uniqueEmail, signUpOwner } from "../../tests/support/factories";
import { type TestResponse, type TestServer, startTestServer } from "../../tests/support/server";
import { TcpProxy } from "../../tests/support/tcp-proxy";
import { createDatabase } from "../db/connection";
import { createLogger } from "../logger";

const postgresUrl = process.env.TEST_DATABASE_URL;

/** Callers come from addresses of their own (X-Forwarded-For), as behind the load balancer. */
const TRUST_PROXY = { TRUST_PROXY: "true" };

const wrongPassword = (server: TestServer, email: string) =>
  new AgentFromIp(server.url, freshIp()).post("/api/login", {
    username: email,
    password: "wrong-guess",
  });

function expectRefused(answer: TestResponse, windowSeconds: number) {
  expect(answer.status).toBe(429);
  expect(answer.body.message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
  const retryAfter = Number(answer.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe("one instance", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: TRUST_PROXY });
  });
  afterAll(() => server?.close());

  it("answers 429 with the seconds to wait in Retry-After", async () => {
    const owner = await signUpOwner(server);
    for (let i = 0; i < 10; i += 1)
      expect((await wrongPassword(server, owner.email)).status).toBe(401);
    expectRefused(await wrongPassword(server, owner.email), 15 * 60);
  });
});

/**
 * Two servers on one PostgreSQL with the same key prefix are two instances behind a load
 * balancer: each sees only half the attempts, yet the limits hold for the sum.
 */
describe.skipIf(!postgresUrl)("two instances on one PostgreSQL", () => {
  async function twoInstances() {
    const rateLimitKeyPrefix = `instances-${randomUUID()}`;
    const a = await startTestServer({ env: TRUST_PROXY, rateLimitKeyPrefix });
    const b = await startTestServer({ db: a.db, env: TRUST_PROXY, rateLimitKeyPrefix });
    return {
      servers: [a, b] as const,
      async close() {
        await b.close();
        await a.close();
      },
    };
  }

  it("spend one sign-in budget: ten wrong passwords spread over both lock the account on both", async () => {
    const instances = await twoInstances();
    try {
      const [a, b] = instances.servers;
      const owner = await signUpOwner(a);
      for (let i = 0; i < 10; i += 1) {
        expect((await wrongPassword(i % 2 === 0 ? a : b, owner.email)).status).toBe(401);
      }
      expectRefused(await wrongPassword(a, owner.email), 15 * 60);
      expectRefused(await wrongPassword(b, owner.email), 15 * 60);
      // Signing in from the owner's own browser (device cookie) forgets nothing of the strangers'.
      const signedIn = await owner.agent.post("/api/login", {
        username: owner.email,
        password: owner.password,
      });
      expect(signedIn.status).toBe(200);
      expectRefused(await wrongPassword(b, owner.email), 15 * 60);
    } finally {
      await instances.close();
    }
  });

  it("spend one mail budget per address over both, in its hour-long window", async () => {
    const instances = await twoInstances();
    try {
      const [a, b] = instances.servers;
      const email = uniqueEmail("shared-limit");
      const forgot = (server: TestServer) =>
        new AgentFromIp(server.url, freshIp()).post("/api/forgot-password", { email });
      for (const server of [a, b, a, b, a]) expect((await forgot(server)).status).toBe(200);
      const refused = await forgot(b);
      expectRefused(refused, 60 * 60);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(15 * 60);
      expect((await forgot(a)).status).toBe(429);
    } finally {
      await instances.close();
    }
  });
});

describe.skipIf(!postgresUrl)("the limits' database out of reach", () => {
  it("refuses a limited request with 503 instead of letting it through, and recovers", async () => {
    const through = await TcpProxy.inFrontOf(postgresUrl as string);
    // Its "connection ended" warnings are what this test expects.
    const db = createDatabase({ url: through.url, poolMax: 5, logger: createLogger("silent") });
    const server = await startTestServer({ db, env: { DATABASE_URL: through.url } });
    try {
      // Forgot-password reads nothing before it answers (the mail is sent after): only its
      // limits need the database.
      const forgot = () =>
        server.agent().post("/api/forgot-password", { email: uniqueEmail("outage") });
      expect((await forgot()).status).toBe(200);
      await through.proxy.cut();
      const refused = await forgot();
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      await through.proxy.resume();
      await expect.poll(async () => (await forgot()).status, { timeout: 15_000 }).toBe(200);
    } finally {
      await through.proxy.resume();
      await server.close();
      await db.destroy();
      await through.proxy.close();
    }
  });
});
