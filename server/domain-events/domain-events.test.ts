import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RealtimeEvent } from "../../shared/realtime";
import { TestClock } from "../../tests/support/clock";
import { testDatabase } from "../../tests/support/database";
import { signUpOwner, startConversation } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { TestSocket } from "../../tests/support/ws-client";
import type { Services } from "../context";
import type { Database } from "../db/connection";
import { CLOSE_CODES } from "../realtime/socket-server";
import { RENEWED_SESSION_GRACE_MS } from "../events/realtime";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, TAKE_OVER_AFTER_MS } from "./domain-events";
import type { EventListener } from "./events";

// Issue 24: commands record what happened in the transaction of the change (the events
// outbox); listeners (realtime, push, metrics) run after commit, and a row left by an
// instance that died, or by a listener that failed, is run by the job: never lost.

let db: Database;
const servers: TestServer[] = [];
const sockets: TestSocket[] = [];

beforeAll(async () => {
  db = await testDatabase();
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.close();
  for (const server of servers.splice(0)) await server.close();
});
afterAll(async () => {
  await db?.destroy();
});

async function instance(options: { queue?: string; clock?: TestClock; logLines?: string[] } = {}) {
  const lines = options.logLines;
  const server = await startTestServer({
    db,
    clock: options.clock,
    mailQueue: options.queue,
    ...(lines
      ? {
          env: { LOG_LEVEL: "info" },
          logDestination: { write: (line: string) => void lines.push(line) },
        }
      : {}),
  });
  servers.push(server);
  return server;
}

/** What this instance's hub delivers to its sockets, from now on. */
function heard(server: TestServer): RealtimeEvent[] {
  const events: RealtimeEvent[] = [];
  server.services.realtime.subscribe((message) => {
    if (message.kind === "event") events.push(message.event);
  });
  return events;
}

const rowsOf = (server: TestServer) =>
  db("events")
    .where("queue", server.services.events.queue)
    .select("id", "type", "payload", "attempts", "lastError");

async function textsCounted(services: Services): Promise<number> {
  const metric = await services.metrics.messagesSent.get();
  return metric.values.find((value) => value.labels.kind === "text")?.value ?? 0;
}

describe("domain events", () => {
  it("a sent message reaches the other side once, is counted once, and leaves no row behind", async () => {
    const server = await instance();
    const events = heard(server);
    const { owner, path } = await startConversation(server);
    const before = await textsCounted(server.services);

    const sent = await owner.agent.post(`${path}/messages`, { content: "Hello" });
    expect(sent.status).toBe(201);

    await expect
      .poll(() => events.filter((event) => event.messageId === sent.body.id))
      .toEqual([
        {
          type: "new_message",
          clientId: path.split("/").pop(),
          messageId: sent.body.id,
          afterId: null,
        },
      ]);
    await server.services.events.idle();
    expect(await textsCounted(server.services)).toBe(before + 1);
    expect(await rowsOf(server)).toEqual([]);
  });

  it("a change that rolls back records nothing", async () => {
    const server = await instance();
    await expect(
      db.transaction(async (trx) => {
        await server.services.events.record(trx, { type: "ClientJoined", clientId: randomUUID() });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await rowsOf(server)).toEqual([]);
  });

  it("an event whose instance died after commit is run by another instance's job", async () => {
    const queue = `events-${randomUUID()}`;
    const clock = new TestClock();
    const dying = await instance({ queue, clock });
    const other = await instance({ queue, clock });
    const { client, path } = await startConversation(dying);
    const sent = await client.agent.post(`${path}/messages`, { content: "Before the crash" });
    const clientId = path.split("/").pop() ?? "";
    await dying.services.events.idle();
    // As a command does, up to its commit; the instance then dies before dispatching.
    await db.transaction((trx) =>
      dying.services.events.record(trx, {
        type: "FeedbackDecided",
        clientId,
        messageId: sent.body.id,
      }),
    );
    const heardByOther = heard(other);
    // On PostgreSQL the message's own new_message may still be on its way to the other
    // instance (LISTEN): only the decision counts here.
    const events = () => heardByOther.filter((event) => event.type === "feedback_updated");

    // Not yet: its own instance may still be running it.
    await other.jobs.runOnce("domain-events");
    expect(events()).toEqual([]);
    expect(await rowsOf(other)).toHaveLength(1);

    clock.advance(TAKE_OVER_AFTER_MS + 1_000);
    await other.jobs.runOnce("domain-events");
    // Published; on PostgreSQL it comes back to this instance through LISTEN a moment later.
    await expect
      .poll(events)
      .toEqual([{ type: "feedback_updated", clientId, messageId: sent.body.id }]);
    expect(await rowsOf(other)).toEqual([]);
  });

  it("an instance's job leaves alone an event its own dispatch is still running (an overloaded instance)", async () => {
    const clock = new TestClock();
    const server = await instance({ clock });
    const runs: string[] = [];
    let finish = () => {};
    const slow: EventListener<Services> = {
      name: "slow",
      handles: ["ClientJoined"],
      handle: (_services, { event }) =>
        new Promise<void>((resolve) => {
          if (event.type === "ClientJoined") runs.push(event.clientId);
          finish = resolve;
        }),
    };
    server.services.events.listen(server.services, [slow]);
    const clientId = randomUUID();
    server.services.events.dispatch(
      await server.services.events.record(db, { type: "ClientJoined", clientId }),
    );

    clock.advance(TAKE_OVER_AFTER_MS + 1_000);
    await server.jobs.runOnce("domain-events");
    expect(runs).toEqual([clientId]);
    expect(await rowsOf(server)).toMatchObject([{ attempts: 0 }]);

    finish();
    await server.services.events.idle();
    expect(runs).toEqual([clientId]);
    expect(await rowsOf(server)).toEqual([]);
  });

  it("a listener that fails is retried with backoff; one that keeps failing is given up and logged", async () => {
    const clock = new TestClock();
    const lines: string[] = [];
    const server = await instance({ clock, logLines: lines });
    let failuresLeft = 2;
    const ran: string[] = [];
    const flaky: EventListener<Services> = {
      name: "flaky",
      handles: ["ClientJoined"],
      handle(_services, { event }) {
        if (failuresLeft-- > 0) throw new Error("listener down");
        if (event.type === "ClientJoined") ran.push(event.clientId);
      },
    };
    server.services.events.listen(server.services, [flaky]);
    const clientId = randomUUID();

    const recorded = await server.services.events.record(db, { type: "ClientJoined", clientId });
    server.services.events.dispatch(recorded);
    await server.services.events.idle();
    expect(ran).toEqual([]);
    expect(lines.some((line) => line.includes("a listener failed"))).toBe(true);

    clock.advance(TAKE_OVER_AFTER_MS + 1_000);
    await server.jobs.runOnce("domain-events");
    expect(await rowsOf(server)).toMatchObject([{ attempts: 1, lastError: "listener down" }]);
    expect(ran).toEqual([]);

    clock.advance((RETRY_DELAYS_MS[0] ?? 0) + 1_000);
    await server.jobs.runOnce("domain-events");
    expect(ran).toEqual([clientId]);
    expect(await rowsOf(server)).toEqual([]);

    // Never takes it: given up after MAX_ATTEMPTS, with an error in the log.
    failuresLeft = Number.POSITIVE_INFINITY;
    await server.services.events.record(db, { type: "ClientJoined", clientId });
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      clock.advance(60 * 60_000);
      await server.jobs.runOnce("domain-events");
    }
    expect(await rowsOf(server)).toEqual([]);
    expect(lines.some((line) => line.includes("domain event given up"))).toBe(true);
  });

  it("a password change closes the account's other sockets at once (SessionEnded), and its own after a grace", async () => {
    const server = await instance();
    const owner = await signUpOwner(server);
    const elsewhere = server.agent();
    const signedIn = await elsewhere.post("/api/login", {
      username: owner.email,
      password: owner.password,
    });
    expect(signedIn.status).toBe(200);
    const laptop = await TestSocket.open(server.url, { cookie: elsewhere.cookieHeader });
    const here = await TestSocket.open(server.url, { cookie: owner.agent.cookieHeader });
    sockets.push(laptop, here);

    const changed = await owner.agent.patch("/api/user/password", {
      currentPassword: owner.password,
      newPassword: "a-new-password-42",
    });
    expect(changed.status).toBe(200);
    expect((await laptop.waitForClose(1_000)).code).toBe(CLOSE_CODES.sessionEnded);
    // The browser that made the change is signed in anew: its old socket closes a few seconds
    // later, when it holds the new cookie to reconnect with (tests/browser/stays-live.test.ts).
    const changedAt = Date.now();
    expect((await here.waitForClose(RENEWED_SESSION_GRACE_MS + 2_000)).code).toBe(
      CLOSE_CODES.sessionEnded,
    );
    expect(Date.now() - changedAt).toBeGreaterThan(RENEWED_SESSION_GRACE_MS - 1_000);
  });
});
