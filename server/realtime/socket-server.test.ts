import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageEvent } from "../../shared/realtime";
import { usingPostgres } from "../../tests/support/database";
import { uniqueEmail } from "../../tests/support/factories";
import { startTestServer, type TestServer } from "../../tests/support/server";
import { presentedMessage } from "../../tests/support/message-view";
import { TestSocket, upgradeStatus } from "../../tests/support/ws-client";
import { hashToken } from "../auth/sessions";
import type { Database } from "../db/connection";
import { type PostgresRealtimeHub, REALTIME_CHANNEL } from "./postgres-hub";
import { CLOSE_CODES } from "./socket-server";

// Conversations are made directly in the database: this file tests the socket, not the API.

interface Member {
  userId: string;
  token: string;
  cookie: string;
}

async function signIn(
  db: Database,
  userId: string,
  expiresInMs = 24 * 60 * 60 * 1000,
): Promise<Member> {
  const token = randomBytes(32).toString("base64url");
  await db("sessions").insert({
    idHash: hashToken(token),
    userId,
    expiresAt: new Date(Date.now() + expiresInMs),
  });
  return { userId, token, cookie: `sid=${token}` };
}

async function makeOwner(db: Database): Promise<Member> {
  const [row] = await db("users")
    .insert({
      email: uniqueEmail("owner"),
      fullName: "Olivia Owner",
      role: "owner",
      emailVerifiedAt: new Date(),
    })
    .returning("id");
  return signIn(db, row.id);
}

async function makeClient(db: Database, owner: Member): Promise<Member & { clientId: string }> {
  const email = uniqueEmail("client");
  const [user] = await db("users")
    .insert({ email, fullName: "Carl Client", role: "client" })
    .returning("id");
  const [client] = await db("clients")
    .insert({
      ownerId: owner.userId,
      userId: user.id,
      name: "Carl Client",
      email,
      joinedAt: new Date(),
    })
    .returning("id");
  await db("users").where("id", user.id).update({ clientId: client.id });
  return { ...(await signIn(db, user.id)), clientId: client.id };
}

const newMessage = (clientId: string, messageId: string = randomUUID()): MessageEvent => ({
  type: "new_message",
  clientId,
  messageId,
});

let server: TestServer;
const sockets: TestSocket[] = [];

/**
 * Publishes a marker into `clientId`'s conversation (from `from`) and waits until each of
 * `receivers` has it. A socket receives events in the order they were published, so anything
 * published before the marker that was going to reach it has arrived by then: this is how the
 * tests below show that something did not arrive.
 */
async function marker(
  clientId: string,
  receivers: TestSocket[],
  from: TestServer = server,
): Promise<MessageEvent> {
  const event = newMessage(clientId);
  await from.services.realtime.publish(event);
  for (const socket of receivers) await socket.waitFor((e) => e.messageId === event.messageId);
  return event;
}

async function open(member: Member, target: TestServer = server): Promise<TestSocket> {
  const socket = await TestSocket.open(target.url, { cookie: member.cookie });
  sockets.push(socket);
  return socket;
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
});

describe("upgrade", () => {
  it("refuses a wrong or missing Origin with 403, even with a valid session", async () => {
    const owner = await makeOwner(server.db);
    expect(
      await upgradeStatus(server.url, { cookie: owner.cookie, origin: "http://evil.example" }),
    ).toBe(403);
    // Same host, other port or scheme: not the app's origin.
    const other = new URL(server.url);
    other.port = String(Number(other.port) + 1);
    expect(await upgradeStatus(server.url, { cookie: owner.cookie, origin: other.origin })).toBe(
      403,
    );
    expect(
      await upgradeStatus(server.url, {
        cookie: owner.cookie,
        origin: `${server.origin}.evil.example`,
      }),
    ).toBe(403);
    expect(await upgradeStatus(server.url, { cookie: owner.cookie, origin: "" })).toBe(403);
    expect(await upgradeStatus(server.url, { cookie: owner.cookie })).toBe(101);
  });

  it("refuses a missing, unknown or expired session with 401", async () => {
    expect(await upgradeStatus(server.url)).toBe(401);
    expect(await upgradeStatus(server.url, { cookie: "sid=nonsense" })).toBe(401);
    expect(await upgradeStatus(server.url, { cookie: `sid=${"x".repeat(500)}` })).toBe(401);
    const owner = await makeOwner(server.db);
    // The hash itself is not a session id.
    expect(await upgradeStatus(server.url, { cookie: `sid=${hashToken(owner.token)}` })).toBe(401);
    const expired = await signIn(server.db, owner.userId, -1_000);
    expect(await upgradeStatus(server.url, { cookie: expired.cookie })).toBe(401);
    expect(await upgradeStatus(server.url, { cookie: `other=1; ${owner.cookie}; more=2` })).toBe(
      101,
    );
  });

  it("refuses a client user whose client was deleted with 403", async () => {
    const owner = await makeOwner(server.db);
    const client = await makeClient(server.db, owner);
    await server.db("clients").where("id", client.clientId).delete();
    expect(await upgradeStatus(server.url, { cookie: client.cookie })).toBe(403);
  });

  it("serves only /ws: other upgrade paths are cut", async () => {
    const owner = await makeOwner(server.db);
    await expect(
      TestSocket.open(server.url, { cookie: owner.cookie, path: "/api/user" }),
    ).rejects.toThrow();
    await expect(
      TestSocket.open(server.url, { cookie: owner.cookie, path: "/ws/x" }),
    ).rejects.toThrow();
    expect(await upgradeStatus(server.url, { cookie: owner.cookie, path: "/ws?v=1" })).toBe(101);
  });
});

describe("delivery", () => {
  it("delivers an event to exactly the owner and the client of its conversation, once", async () => {
    const ownerA = await makeOwner(server.db);
    const ownerB = await makeOwner(server.db);
    const clientA1 = await makeClient(server.db, ownerA);
    const clientA2 = await makeClient(server.db, ownerA);
    const clientB1 = await makeClient(server.db, ownerB);
    const socketA = await open(ownerA);
    const socketA2ndTab = await open(ownerA);
    const socketB = await open(ownerB);
    const socketA1 = await open(clientA1);
    const socketA2 = await open(clientA2);
    const socketB1 = await open(clientB1);

    const event = newMessage(clientA1.clientId);
    await server.services.realtime.publish(event);
    await socketA.waitFor((e) => e.messageId === event.messageId);
    await socketA2ndTab.waitFor((e) => e.messageId === event.messageId);
    await socketA1.waitFor((e) => e.messageId === event.messageId);
    const toA1 = await marker(clientA1.clientId, [socketA, socketA2ndTab, socketA1]);
    const toA2 = await marker(clientA2.clientId, [socketA2]);
    const toB1 = await marker(clientB1.clientId, [socketB, socketB1]);
    expect(socketA.eventsFor(event.messageId)).toEqual([event]);
    expect(socketA2ndTab.eventsFor(event.messageId)).toEqual([event]);
    expect(socketA1.events).toEqual([event, toA1]);
    for (const outsider of [socketB, socketB1]) expect(outsider.events).toEqual([toB1]);
    expect(socketA2.events).toEqual([toA2]);

    const forB1 = {
      type: "feedback_updated",
      clientId: clientB1.clientId,
      messageId: randomUUID(),
    } as const;
    await server.services.realtime.publish(forB1);
    await socketB.waitFor((e) => e.messageId === forB1.messageId);
    await socketB1.waitFor((e) => e.messageId === forB1.messageId);
    await marker(clientA1.clientId, [socketA, socketA1]);
    const toA2Again = await marker(clientA2.clientId, [socketA2]);
    expect(socketA.eventsFor(forB1.messageId)).toEqual([]);
    expect(socketA1.eventsFor(forB1.messageId)).toEqual([]);
    expect(socketA2.events).toEqual([toA2, toA2Again]);
  });

  it("delivers events in the order they were published", async () => {
    const owner = await makeOwner(server.db);
    const client = await makeClient(server.db, owner);
    const other = await makeClient(server.db, owner);
    const socket = await open(owner);
    const events = Array.from({ length: 100 }, (_, i) =>
      newMessage(i % 2 ? client.clientId : other.clientId),
    );
    await Promise.all(events.map((event) => server.services.realtime.publish(event)));
    await socket.waitFor((e) => e.messageId === events.at(-1)!.messageId);
    expect(socket.events).toEqual(events);
  });

  it("sends only type, clientId and messageId", async () => {
    const owner = await makeOwner(server.db);
    const client = await makeClient(server.db, owner);
    const socket = await open(owner);
    const event = {
      ...newMessage(client.clientId),
      content: "secret",
      ownerId: owner.userId,
    } as unknown as MessageEvent;
    await server.services.realtime.publish(event);
    const received = await socket.waitFor((e) => e.messageId === event.messageId);
    expect(Object.keys(received).sort()).toEqual(["clientId", "messageId", "type"]);
  });

  it("sends each side its own view of a new message, and never one view to both", async () => {
    const owner = await makeOwner(server.db);
    const client = await makeClient(server.db, owner);
    const ownerSocket = await open(owner);
    const clientSocket = await open(client);
    const event = { ...newMessage(client.clientId), afterId: null };
    const createdAt = new Date().toISOString();
    const view = (senderName: string, id = event.messageId) =>
      presentedMessage({ id, senderName, createdAt });
    await server.services.realtime.publish(event, {
      owner: view("Olivia Owner"),
      client: view("Studio Olivia"),
    });
    expect(await ownerSocket.waitFor((e) => e.messageId === event.messageId)).toEqual({
      ...event,
      message: view("Olivia Owner"),
    });
    expect(await clientSocket.waitFor((e) => e.messageId === event.messageId)).toEqual({
      ...event,
      message: view("Studio Olivia"),
    });
    // A view for one side only: the other gets the ids; a message put on the event itself
    // (for both sides) is taken off.
    const second = { ...newMessage(client.clientId), afterId: event.messageId };
    await server.services.realtime.publish(
      { ...second, message: view("Olivia Owner", second.messageId) } as MessageEvent,
      { owner: view("Olivia Owner", second.messageId) },
    );
    expect(await clientSocket.waitFor((e) => e.messageId === second.messageId)).toEqual(second);
    expect((await ownerSocket.waitFor((e) => e.messageId === second.messageId)).message).toEqual(
      view("Olivia Owner", second.messageId),
    );
  });

  it("drops events for unknown or malformed conversations without harm", async () => {
    const owner = await makeOwner(server.db);
    const client = await makeClient(server.db, owner);
    const socket = await open(owner);
    await server.services.realtime.publish(newMessage(randomUUID()));
    await server.services.realtime.publish({
      type: "new_message",
      clientId: "not-a-uuid",
      messageId: "x",
    });
    await server.services.realtime.publish({
      type: "bogus",
      clientId: client.clientId,
      messageId: "x",
    } as never);
    const event = newMessage(client.clientId);
    await server.services.realtime.publish(event);
    await socket.waitFor((e) => e.messageId === event.messageId);
    const after = await marker(client.clientId, [socket]);
    expect(socket.events).toEqual([event, after]);
  });
});

describe("ending access", () => {
  it("disconnectUsers closes the user's sockets with 4001 and leaves the others", async () => {
    const owner = await makeOwner(server.db);
    const client = await makeClient(server.db, owner);
    const ownerSocket = await open(owner);
    const clientSocket = await open(client);
    const clientSecondTab = await open(client);
    await server.services.realtime.disconnectUsers([client.userId]);
    expect((await clientSocket.waitForClose()).code).toBe(CLOSE_CODES.accessRevoked);
    expect((await clientSecondTab.waitForClose()).code).toBe(CLOSE_CODES.accessRevoked);
    expect(ownerSocket.isOpen).toBe(true);
  });

  it("a deleted client receives nothing more: its sockets close and cannot reopen", async () => {
    const owner = await makeOwner(server.db);
    const client = await makeClient(server.db, owner);
    const kept = await makeClient(server.db, owner);
    const ownerSocket = await open(owner);
    const clientSocket = await open(client);
    // The conversation's members are cached after this one.
    const before = newMessage(client.clientId);
    await server.services.realtime.publish(before);
    await clientSocket.waitFor((e) => e.messageId === before.messageId);
    // What the delete command does: the rows in a transaction, then disconnectUsers.
    await server.db.transaction(async (trx) => {
      await trx("clients").where("id", client.clientId).delete();
      await trx("sessions").where("userId", client.userId).delete();
      await trx("users").where("id", client.userId).delete();
    });
    await server.services.realtime.disconnectUsers([client.userId]);
    expect((await clientSocket.waitForClose()).code).toBe(CLOSE_CODES.accessRevoked);
    expect(await upgradeStatus(server.url, { cookie: client.cookie })).toBe(401);
    const after = newMessage(client.clientId);
    await server.services.realtime.publish(after);
    await marker(kept.clientId, [ownerSocket]);
    expect(clientSocket.events).toEqual([before]);
    expect(ownerSocket.eventsFor(after.messageId)).toEqual([]);
  });

  it("a signed-out user's sockets close with 4401 at once, by the session's end event", async () => {
    const owner = await makeOwner(server.db);
    const client = await makeClient(server.db, owner);
    const ownerSocket = await open(owner);
    const clientSocket = await open(client);
    const otherTab = await open(client);
    const otherBrowser = await open(await signIn(server.db, client.userId));
    await server.db("sessions").where("idHash", hashToken(client.token)).delete();
    await server.services.realtime.endSession(hashToken(client.token));
    expect((await otherTab.waitForClose()).code).toBe(CLOSE_CODES.sessionEnded);
    expect((await clientSocket.waitForClose()).code).toBe(CLOSE_CODES.sessionEnded);
    const event = newMessage(client.clientId);
    await server.services.realtime.publish(event);
    await ownerSocket.waitFor((e) => e.messageId === event.messageId);
    expect(clientSocket.events).toEqual([]);
    expect(ownerSocket.isOpen).toBe(true);
    await otherBrowser.waitFor((e) => e.messageId === event.messageId);
  });

  it("an ended session's sockets can be given a few seconds (afterMs) before they close", async () => {
    const owner = await makeOwner(server.db);
    const client = await makeClient(server.db, owner);
    const socket = await open(owner);
    const asked = Date.now();
    await server.services.realtime.endSession(hashToken(owner.token), 400);
    // Still open and delivering after the end was announced...
    await marker(client.clientId, [socket]);
    // ...and closed once the delay is over, not before.
    expect((await socket.waitForClose(2_000)).code).toBe(CLOSE_CODES.sessionEnded);
    expect(Date.now() - asked).toBeGreaterThanOrEqual(390);
  });

  it("a client who joins after events went out receives the next ones", async () => {
    const owner = await makeOwner(server.db);
    const email = uniqueEmail("client");
    const [pending] = await server
      .db("clients")
      .insert({ ownerId: owner.userId, name: "Pat Pending", email })
      .returning("id");
    const ownerSocket = await open(owner);
    const early = newMessage(pending.id);
    await server.services.realtime.publish(early);
    await ownerSocket.waitFor((e) => e.messageId === early.messageId);
    // The client accepts the invite: a client user, linked to the conversation, signed in.
    const [user] = await server
      .db("users")
      .insert({ email, fullName: "Pat Pending", role: "client", clientId: pending.id })
      .returning("id");
    await server
      .db("clients")
      .where("id", pending.id)
      .update({ userId: user.id, joinedAt: new Date() });
    const clientSocket = await open(await signIn(server.db, user.id));
    const later = newMessage(pending.id);
    await server.services.realtime.publish(later);
    await clientSocket.waitFor((e) => e.messageId === later.messageId);
    await ownerSocket.waitFor((e) => e.messageId === later.messageId);
    expect(clientSocket.events).toEqual([later]);
  });

  it("closes a socket when its session expires, and keeps one whose session was extended meanwhile", async () => {
    const owner = await makeOwner(server.db);
    const client = await makeClient(server.db, owner);
    // The extended session's timer fires first (200 ms), the expiring one's after (600 ms).
    const extendedMember = await signIn(server.db, owner.userId, 200);
    const extended = await open(extendedMember);
    const expiring = await open(await signIn(server.db, owner.userId, 600));
    // The browser kept making requests: koa-session slid the session's expiry.
    await server
      .db("sessions")
      .where("idHash", hashToken(extendedMember.token))
      .update({ expiresAt: new Date(Date.now() + 60 * 60 * 1000) });
    expect((await expiring.waitForClose(3_000)).code).toBe(CLOSE_CODES.sessionEnded);
    // By then the extended one's timer had fired and found the later expiry: still delivering.
    await marker(client.clientId, [extended]);
    expect(extended.isOpen).toBe(true);
  });
});

describe("abuse", () => {
  it("closes a socket that sends a frame over 4 KB (1009)", async () => {
    const owner = await makeOwner(server.db);
    const socket = await open(owner);
    socket.ws.send("x".repeat(5 * 1024));
    expect((await socket.waitForClose()).code).toBe(1009);
  });

  it("ignores small frames from clients", async () => {
    const owner = await makeOwner(server.db);
    const client = await makeClient(server.db, owner);
    const socket = await open(owner);
    socket.ws.send(JSON.stringify({ type: "subscribe", clientId: randomUUID() }));
    const event = newMessage(client.clientId);
    await server.services.realtime.publish(event);
    await socket.waitFor((e) => e.messageId === event.messageId);
    expect(socket.isOpen).toBe(true);
  });
});

describe("heartbeat", () => {
  let quick: TestServer;
  beforeAll(async () => {
    quick = await startTestServer({
      db: server.db,
      realtime: { heartbeatMs: 150 },
    });
  });
  afterAll(() => quick?.close());

  it("keeps answering sockets and cuts silent ones", async () => {
    const owner = await makeOwner(server.db);
    const answering = await TestSocket.open(quick.url, { cookie: owner.cookie });
    const silent = await TestSocket.open(quick.url, {
      cookie: owner.cookie,
      ws: { autoPong: false },
    });
    sockets.push(answering, silent);
    let pings = 0;
    answering.ws.on("ping", () => {
      pings += 1;
    });
    expect((await silent.waitForClose(3_000)).code).toBe(1006);
    // Three more heartbeats: one unanswered ping is enough to be cut at the next.
    const seen = pings;
    await expect.poll(() => pings, { timeout: 3_000 }).toBeGreaterThanOrEqual(seen + 3);
    expect(answering.isOpen).toBe(true);
  });
});

// Skipped on PGlite: an embedded database lives in one process, so there is no second instance
// to reach. Runs in CI's PostgreSQL pass (TEST_DATABASE_URL).
describe.skipIf(!usingPostgres)(
  "two instances on one PostgreSQL (PostgreSQL only: skipped on PGlite)",
  () => {
    let second: TestServer;
    beforeAll(async () => {
      second = await startTestServer({ db: server.db });
    });
    afterAll(() => second?.close());

    it("delivers an event published on one instance to sockets on both, exactly once each", async () => {
      const owner = await makeOwner(server.db);
      const client = await makeClient(server.db, owner);
      const outsider = await makeOwner(server.db);
      const outsidersClient = await makeClient(server.db, outsider);
      const ownerOnSecond = await open(owner, second);
      const clientOnFirst = await open(client, server);
      const outsiderOnSecond = await open(outsider, second);

      const fromFirst = newMessage(client.clientId);
      await server.services.realtime.publish(fromFirst);
      const fromSecond = newMessage(client.clientId);
      await second.services.realtime.publish(fromSecond);
      for (const socket of [ownerOnSecond, clientOnFirst]) {
        await socket.waitFor((e) => e.messageId === fromFirst.messageId);
        await socket.waitFor((e) => e.messageId === fromSecond.messageId);
      }
      // Markers from both instances: any second copy of the events would have come before.
      const members = [ownerOnSecond, clientOnFirst];
      const markers = [
        await marker(client.clientId, members),
        await marker(client.clientId, members, second),
      ];
      expect(ownerOnSecond.events).toEqual([fromFirst, fromSecond, ...markers]);
      expect(clientOnFirst.events).toEqual([fromFirst, fromSecond, ...markers]);
      const toOutsider = await marker(outsidersClient.clientId, [outsiderOnSecond]);
      expect(outsiderOnSecond.events).toEqual([toOutsider]);
    });

    it("a burst of events (batched into few NOTIFYs) arrives complete, in order, once each", async () => {
      const owner = await makeOwner(server.db);
      const client = await makeClient(server.db, owner);
      const socket = await open(owner, second);
      const burst = Array.from({ length: 300 }, () => newMessage(client.clientId));
      await Promise.all(burst.map((event) => server.services.realtime.publish(event)));
      const last = burst.at(-1)!;
      await socket.waitFor((e) => e.messageId === last.messageId, 10_000);
      const after = await marker(client.clientId, [socket]);
      expect(socket.events).toEqual([...burst, after]);
    });

    it("disconnectUsers on one instance closes the user's sockets on the other", async () => {
      const owner = await makeOwner(server.db);
      const client = await makeClient(server.db, owner);
      const onSecond = await open(client, second);
      await server.services.realtime.disconnectUsers([client.userId]);
      expect((await onSecond.waitForClose()).code).toBe(CLOSE_CODES.accessRevoked);
    });

    it("an ended session on one instance closes its sockets on the other at once", async () => {
      const owner = await makeOwner(server.db);
      const onSecond = await open(owner, second);
      const otherSession = await open(await signIn(server.db, owner.userId), second);
      await server.services.realtime.endSession(hashToken(owner.token));
      expect((await onSecond.waitForClose()).code).toBe(CLOSE_CODES.sessionEnded);
      expect(otherSession.isOpen).toBe(true);
    });

    it("ignores malformed notifications on the channel", async () => {
      const owner = await makeOwner(server.db);
      const client = await makeClient(server.db, owner);
      const socket = await open(owner, second);
      for (const payload of [
        "garbage",
        "{}",
        JSON.stringify({ kind: "event", event: { type: "new_message" } }),
      ]) {
        await server.db.raw("select pg_notify(?, ?)", [REALTIME_CHANNEL, payload]);
      }
      const event = newMessage(client.clientId);
      await server.services.realtime.publish(event);
      await socket.waitFor((e) => e.messageId === event.messageId);
      const after = await marker(client.clientId, [socket]);
      expect(socket.events).toEqual([event, after]);
    });

    it("reconnects a lost LISTEN connection and asks its sockets to catch up (1012)", async () => {
      const owner = await makeOwner(server.db);
      const client = await makeClient(server.db, owner);
      const hub = second.services.realtime as PostgresRealtimeHub;
      const before = await open(owner, second);
      const pid = hub.listenerPid;
      expect(pid).toBeTypeOf("number");
      await server.db.raw("select pg_terminate_backend(?)", [pid]);
      expect((await before.waitForClose(10_000)).code).toBe(CLOSE_CODES.resync);
      expect(hub.listening).toBe(true);
      expect(hub.listenerPid).not.toBe(pid);
      const after = await open(owner, second);
      const event = newMessage(client.clientId);
      await server.services.realtime.publish(event);
      await after.waitFor((e) => e.messageId === event.messageId);
    });
  },
);
