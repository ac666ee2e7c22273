import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, type JoinedClient } from "../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../tests/support/factories";
import { type TestResponse, type TestServer, startTestServer } from "../../tests/support/server";
import { TcpProxy } from "../../tests/support/tcp-proxy";
import { TestSocket, upgradeStatus } from "../../tests/support/ws-client";
import { createDatabase, type Database } from "./connection";

const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) {
  // PGlite runs in process: there is no network to break. CI runs this file on PostgreSQL.
  console.info("database-outage.test.ts: skipped (needs TEST_DATABASE_URL, PostgreSQL)");
}

const UNAVAILABLE = "The service is briefly unavailable. Please try again in a moment.";
/** The timeouts are 5 s (5.5 s without any answer); the issue asks for ~6 s: a generous bound. */
const SANITY_BOUND_MS = 9_000;

/**
 * The server reaches PostgreSQL through a TCP proxy that the test freezes (no byte passes) or
 * cuts (connections dropped, new ones refused): the API answers 503 with Retry-After in
 * seconds, /readyz says the database is unreachable (while /healthz, liveness, stays 200: the
 * process is fine and restarting it would not help), and all recovers without a restart.
 */
describe.skipIf(!postgresUrl)("database frozen or down (PostgreSQL through a TCP proxy)", () => {
  let proxy: TcpProxy;
  let db: Database;
  let server: TestServer;
  let owner: SignedInOwner;
  let client: JoinedClient;

  beforeAll(async () => {
    const through = await TcpProxy.inFrontOf(postgresUrl!);
    proxy = through.proxy;
    db = createDatabase({ url: through.url, poolMax: 5 });
    server = await startTestServer({
      db,
      // The LISTEN connection of the realtime hub goes through the proxy too.
      env: { DATABASE_URL: through.url },
    });
    owner = await signUpOwner(server);
    client = await addJoinedClient(server, owner);
  });
  afterAll(async () => {
    await proxy?.resume();
    await server?.close();
    await db?.destroy();
    await proxy?.close();
  });

  function expectUnavailable(answer: TestResponse, what: string) {
    expect(answer.status, what).toBe(503);
    expect(answer.headers.get("retry-after"), what).toBe("5");
  }

  /** A read, a write, the probes and a websocket upgrade, at once while the database is away. */
  async function expectBriefAndClear() {
    const started = performance.now();
    const [list, send, ready, health, upgrade] = await Promise.all([
      owner.agent.get("/api/clients"),
      owner.agent.post(`/api/clients/${client.id}/messages`, { content: "anyone there?" }),
      server.agent().get("/readyz"),
      server.agent().get("/healthz"),
      upgradeStatus(server.url, { cookie: owner.agent.cookieHeader }),
    ]);
    const elapsed = performance.now() - started;
    expectUnavailable(list, "GET /api/clients");
    expect(list.body).toEqual({ message: UNAVAILABLE });
    expectUnavailable(send, "POST message");
    expect(send.body).toEqual({ message: UNAVAILABLE });
    expectUnavailable(ready, "GET /readyz");
    expect(ready.body).toEqual({ status: "unavailable", message: "Database unreachable" });
    expect(health.status).toBe(200);
    expect(upgrade, "websocket upgrade").toBe(503);
    expect(elapsed).toBeLessThan(SANITY_BOUND_MS);
  }

  /** Ready again, the API answering, and websocket events flowing again. */
  async function expectRecovered() {
    await expect
      .poll(async () => (await server.agent().get("/readyz")).status, { timeout: 15_000 })
      .toBe(200);
    const list = await owner.agent.get("/api/clients");
    expect(list.status).toBe(200);
    expect(list.body.map((c: { id: string }) => c.id)).toContain(client.id);

    const open = () => TestSocket.open(server.url, { cookie: owner.agent.cookieHeader });
    let socket = await open();
    try {
      // The LISTEN connection may still be reconnecting: send until an event arrives. Once it
      // is back it closes every socket (1012: events may have been missed), as a browser
      // would, the test then connects again.
      await expect
        .poll(
          async () => {
            if (!socket.isOpen) socket = await open();
            const sent = await client.agent.post(`/api/clients/${client.id}/messages`, {
              content: "back again",
            });
            expect(sent.status).toBe(201);
            // Its event, or (while LISTEN is still away) none: then send again.
            return socket
              .waitFor((event) => event.messageId === sent.body.id, 1_000)
              .then(
                () => true,
                () => false,
              );
          },
          { timeout: 15_000, interval: 100 },
        )
        .toBe(true);
    } finally {
      socket.close();
    }
  }

  it("works through the proxy to begin with", async () => {
    await expectRecovered();
  });

  it("answers 503 with Retry-After while the database is frozen, and recovers", async () => {
    proxy.pause();
    try {
      await expectBriefAndClear();
    } finally {
      await proxy.resume();
    }
    await expectRecovered();
  });

  it("answers 503 with Retry-After while the database is down, and recovers", async () => {
    await proxy.cut();
    try {
      await expectBriefAndClear();
      // Still down a little later: new connections are refused, not waited for.
      await expectBriefAndClear();
    } finally {
      await proxy.resume();
    }
    await expectRecovered();
  });
});
