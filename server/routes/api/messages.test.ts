import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addClient } from "../../../tests/support/conversations";
import { signUpOwner, startConversation } from "../../../tests/support/factories";
import { usingPostgres } from "../../../tests/support/database";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { TestSocket } from "../../../tests/support/ws-client";
import { MESSAGE_MAX_LENGTH } from "../../../shared/schemas/messages";
import type { RealtimeEvent } from "../../../shared/realtime";
import { Message } from "../../models";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

/** An owner (on pro) with one joined client. */
const conversation = (ownerName = "Olivia Owner", clientName = "Carla Client") =>
  startConversation(server, { ownerName, clientName, tier: "pro" });

/**
 * Publishes a marker event into `clientId`'s conversation. The hub hands events on, and sockets
 * receive them, in the order they were published: once the marker is in, anything published
 * before it is in too. This is how the tests below show that nothing more was announced.
 */
async function publishMarker(clientId: string) {
  const marker = { type: "new_message", clientId, messageId: randomUUID() } as const;
  await server.services.realtime.publish(marker);
  return marker;
}

/**
 * Events about one conversation as this server's hub sees them. On PostgreSQL the hub also
 * hears the other test files' servers (one database, one NOTIFY channel): only this
 * conversation's events count. Events published just before recording may still arrive (through
 * LISTEN, a moment later): `type` keeps only the kind a test is about.
 */
function recordEvents(clientId: string, type?: RealtimeEvent["type"]) {
  const events: RealtimeEvent[] = [];
  const stop = server.services.realtime.subscribe((message) => {
    if (message.kind !== "event" || message.event.clientId !== clientId) return;
    events.push(message.event);
  });
  const markers = new Set<string>();
  const isMarker = (event: RealtimeEvent) =>
    event.messageId !== undefined && markers.has(event.messageId);
  /** The events (of `type`) published before a marker published now. */
  const before = async () => {
    const marker = await publishMarker(clientId);
    markers.add(marker.messageId);
    const arrived = () => events.some((e) => "messageId" in e && e.messageId === marker.messageId);
    await expect.poll(arrived).toBe(true);
    return events.filter((event) => !isMarker(event) && (!type || event.type === type));
  };
  return { stop, before };
}

describe("sending and reading messages", () => {
  it("keeps order, names the sender on both sides, and sets the role from the session", async () => {
    const { owner, client, path } = await conversation();
    const sent = await owner.agent.post(`${path}/messages`, { content: "  Hello Carla \n" });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      id: expect.any(String),
      content: "Hello Carla",
      fileUrl: null,
      previewUrl: null,
      fileName: null,
      senderRole: "owner",
      senderName: "Olivia Owner",
      requiresFeedback: false,
      feedbackStatus: null,
      feedbackComment: null,
      createdAt: expect.any(String),
      fileSize: null,
      feedbackAt: null,
      feedbackByName: null,
      versionOf: null,
      versionNumber: 1,
      isLatestVersion: true,
      openMarks: 0,
      dueDate: null,
      read: false,
      authorName: "Olivia Owner",
      authorPicture: null,
      visibility: "client",
      authorId: owner.id,
      editedAt: null,
      deleted: false,
    });
    await client.agent.post(`${path}/messages`, { content: "Hi!\nTwo lines." });
    await owner.agent.post(`${path}/messages`, { content: "Third" });

    for (const agent of [owner.agent, client.agent]) {
      const list = await agent.get(`${path}/messages`);
      expect(list.status).toBe(200);
      expect(list.headers.get("x-has-more")).toBe("false");
      expect(list.body.map((m: { content: string }) => m.content)).toEqual([
        "Hello Carla",
        "Hi!\nTwo lines.",
        "Third",
      ]);
      expect(list.body.map((m: { senderName: string }) => m.senderName)).toEqual([
        "Olivia Owner",
        "Carla Client",
        "Olivia Owner",
      ]);
      expect(list.body.map((m: { senderRole: string }) => m.senderRole)).toEqual([
        "owner",
        "client",
        "owner",
      ]);
    }

    const forged = await client.agent.post(`${path}/messages`, {
      content: "I am the owner",
      senderRole: "owner",
    });
    expect(forged.status).toBe(400);
    expect(forged.body.message).toBe("Unknown field: senderRole");
  });

  it("refuses blank and oversized messages and stores nothing", async () => {
    const { owner, client, path } = await conversation();
    const cases: [unknown, string | RegExp][] = [
      [{ content: "" }, "Message cannot be empty"],
      [{ content: "   \n\t  " }, "Message cannot be empty"],
      [{}, "Message cannot be empty"],
      [{ content: null }, "Message cannot be empty"],
      [{ content: 42 }, "Message cannot be empty"],
      [
        { content: "x".repeat(MESSAGE_MAX_LENGTH + 1) },
        "Messages are limited to 10,000 characters",
      ],
    ];
    for (const [body, message] of cases) {
      for (const agent of [owner.agent, client.agent]) {
        const response = await agent.post(`${path}/messages`, body);
        expect(response.status, JSON.stringify(body).slice(0, 40)).toBe(400);
        expect(response.body).toEqual({ message: expect.stringMatching(message) });
      }
    }
    expect(await Message.query().where("clientId", client.id).resultSize()).toBe(0);
    const longest = await client.agent.post(`${path}/messages`, {
      content: "y".repeat(MESSAGE_MAX_LENGTH),
    });
    expect(longest.status).toBe(201);
    expect(longest.body.content).toHaveLength(MESSAGE_MAX_LENGTH);
  });

  it("announces a new message to both members only, after it is stored", async () => {
    const { owner, client, path } = await conversation();
    const other = await signUpOwner(server, "Other Owner");
    const recorded = recordEvents(client.id);
    const sockets = await Promise.all(
      [owner.agent, client.agent, other.agent].map((agent) =>
        TestSocket.open(server.url, { cookie: agent.cookieHeader }),
      ),
    );
    try {
      const sent = await client.agent.post(`${path}/messages`, { content: "ping" });
      // The conversation's first message: none before it.
      const event = {
        type: "new_message",
        clientId: client.id,
        messageId: sent.body.id,
        afterId: null,
      };
      expect(await recorded.before()).toEqual([event]);
      // Each side's event carries the message exactly as that side's API shows it.
      const [ownerView, clientView] = await Promise.all(
        [owner.agent, client.agent].map(async (agent) =>
          (await agent.get(`${path}/messages`)).body.at(-1),
        ),
      );
      expect(await sockets[0]!.waitFor((e) => e.messageId === sent.body.id)).toEqual({
        ...event,
        message: ownerView,
      });
      expect(await sockets[1]!.waitFor((e) => e.messageId === sent.body.id)).toEqual({
        ...event,
        message: clientView,
      });
      // A marker into the other owner's own conversation: once it is in, `event` would be too.
      const othersMarker = await publishMarker((await addClient(other)).id);
      await sockets[2]!.waitFor((e) => e.messageId === othersMarker.messageId);
      expect(sockets[2]!.events).toEqual([othersMarker]);
      // Refused sends announce nothing.
      await client.agent.post(`${path}/messages`, { content: " " });
      await other.agent.post(`${path}/messages`, { content: "intruder" });
      expect(await recorded.before()).toEqual([event]);
    } finally {
      recorded.stop();
      for (const socket of sockets) socket.close();
    }
  });

  it("names the message before each new one, and names the owner to the client as the portal does", async () => {
    const { owner, client, path } = await conversation();
    const profile = await owner.agent.patch("/api/user/profile", {
      fullName: "Olivia Owner",
      companyName: "Studio Olivia",
    });
    expect(profile.status).toBe(200);
    const sockets = await Promise.all(
      [owner.agent, client.agent].map((agent) =>
        TestSocket.open(server.url, { cookie: agent.cookieHeader }),
      ),
    );
    try {
      const first = await owner.agent.post(`${path}/messages`, { content: "First" });
      const second = await client.agent.post(`${path}/messages`, { content: "Second" });
      const [toOwner, toClient] = sockets.map((socket) =>
        socket.waitFor((e) => e.messageId === first.body.id),
      );
      expect((await toOwner)!.message!.senderName).toBe("Olivia Owner");
      expect((await toClient)!.message!.senderName).toBe("Studio Olivia");
      for (const socket of sockets) {
        const event = await socket.waitFor((e) => e.messageId === second.body.id);
        expect(event.afterId).toBe(first.body.id);
        expect(event.message).toMatchObject({ content: "Second", senderName: "Carla Client" });
      }
    } finally {
      for (const socket of sockets) socket.close();
    }
  });

  it("carries a long message in the event where it fits (in process), else ids only (NOTIFY)", async () => {
    const { owner, client, path } = await conversation();
    const socket = await TestSocket.open(server.url, { cookie: client.agent.cookieHeader });
    try {
      const sent = await owner.agent.post(`${path}/messages`, {
        content: "z".repeat(MESSAGE_MAX_LENGTH),
      });
      const event = await socket.waitFor((e) => e.messageId === sent.body.id);
      // PostgreSQL refuses NOTIFY payloads of 8,000 bytes: the page fetches this one.
      if (usingPostgres) expect(event.message).toBeUndefined();
      else expect(event.message?.content).toHaveLength(MESSAGE_MAX_LENGTH);
      expect(event.afterId).toBeNull();
    } finally {
      socket.close();
    }
  });
});

describe("pages", () => {
  it("give the newest page first, older pages by `before`, and X-Has-More", async () => {
    const { owner, client, path } = await conversation();
    const ids: string[] = [];
    for (let i = 1; i <= 120; i += 1) {
      const agent = i % 3 === 0 ? client.agent : owner.agent;
      const sent = await agent.post(`${path}/messages`, { content: `m${i}` });
      ids.push(sent.body.id);
    }
    const contents = (body: { content: string }[]) => body.map((m) => m.content);
    const range = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);

    const newest = await owner.agent.get(`${path}/messages`);
    expect(contents(newest.body)).toEqual(range(71, 120));
    expect(newest.headers.get("x-has-more")).toBe("true");

    const older = await client.agent.get(`${path}/messages?before=${newest.body[0].id}`);
    expect(contents(older.body)).toEqual(range(21, 70));
    expect(older.headers.get("x-has-more")).toBe("true");

    const oldest = await owner.agent.get(`${path}/messages?before=${older.body[0].id}`);
    expect(contents(oldest.body)).toEqual(range(1, 20));
    expect(oldest.headers.get("x-has-more")).toBe("false");

    const small = await owner.agent.get(`${path}/messages?limit=10&before=${ids[50]}`);
    expect(contents(small.body)).toEqual(range(41, 50));

    // Catch-up after a reconnect: everything after the last message seen.
    const after = await client.agent.get(`${path}/messages?after=${ids[99]}`);
    expect(contents(after.body)).toEqual(range(101, 120));
    expect(after.headers.get("x-has-more")).toBe("false");
    const afterPaged = await client.agent.get(`${path}/messages?after=${ids[99]}&limit=5`);
    expect(contents(afterPaged.body)).toEqual(range(101, 105));
    expect(afterPaged.headers.get("x-has-more")).toBe("true");
    expect((await client.agent.get(`${path}/messages?after=${ids[119]}`)).body).toEqual([]);
  });

  it("refuse bad page parameters and another conversation's message ids", async () => {
    const a = await conversation("Alice", "Anna");
    const b = await conversation("Bob", "Ben");
    const foreign = (await b.owner.agent.post(`${b.path}/messages`, { content: "b's" })).body.id;
    const mine = (await a.owner.agent.post(`${a.path}/messages`, { content: "a's" })).body.id;
    const bad: [string, number][] = [
      ["?before=nope", 400],
      ["?after=123", 400],
      ["?limit=0", 400],
      ["?limit=201", 400],
      ["?limit=ten", 400],
      [`?before=${mine}&after=${mine}`, 400],
      [`?before=${foreign}`, 404],
      [`?after=${foreign}`, 404],
      ["?before=00000000-0000-4000-8000-000000000000", 404],
    ];
    for (const [query, status] of bad) {
      const response = await a.owner.agent.get(`${a.path}/messages${query}`);
      expect(response.status, query).toBe(status);
      expect(Object.keys(response.body), query).toEqual(["message"]);
      expect(JSON.stringify(response.body)).not.toContain("b's");
    }
  });

  it("open a 10,000-message conversation with the same queries as a short one", async () => {
    const big = await conversation();
    const small = await conversation();
    await small.owner.agent.post(`${small.path}/messages`, { content: "only one" });
    await server.db.raw(
      `insert into messages (client_id, sender_id, sender_role, content)
       select ?, ?, case when g % 2 = 0 then 'owner' else 'client' end, 'bulk ' || g
       from generate_series(1, 10000) g order by g`,
      [big.client.id, big.owner.id],
    );
    const measure = async (agent: typeof big.owner.agent, path: string) => {
      let queries = 0;
      const onQuery = () => {
        queries += 1;
      };
      server.services.sessionCache.clear();
      server.services.clientCache.clear();
      // The earlier send's event row is deleted, and its push looked up, in the background:
      // not this read's queries.
      await server.services.events.idle();
      await server.services.afterAnswer.idle();
      server.db.on("query", onQuery);
      const started = performance.now();
      const response = await agent.get(`${path}/messages`);
      const ms = performance.now() - started;
      server.db.removeListener("query", onQuery);
      return { response, queries, ms };
    };
    const bigPage = await measure(big.owner.agent, big.path);
    const smallPage = await measure(small.owner.agent, small.path);
    expect(bigPage.response.body).toHaveLength(50);
    expect(bigPage.response.body.at(-1).content).toBe("bulk 10000");
    expect(bigPage.response.body[0].content).toBe("bulk 9951");
    expect(bigPage.queries).toBe(smallPage.queries);
    expect(bigPage.ms).toBeLessThan(1000);
    const middle = await big.client.agent.get(
      `${big.path}/messages?before=${bigPage.response.body[0].id}`,
    );
    expect(middle.body[0].content).toBe("bulk 9901");
    // The owner's list counts the client's unread messages without reading them all out.
    const listed = (await big.owner.agent.get("/api/clients")).body[0];
    expect(listed).toMatchObject({ unreadCount: 5000, awaitingReply: false });
  });
});

describe("read state", () => {
  it("shows each side whether the other has read, with unread counts from both sides", async () => {
    const { owner, client, path } = await conversation();
    const sent = [];
    for (const content of ["one", "two", "three"])
      sent.push((await owner.agent.post(`${path}/messages`, { content })).body);
    const reads = async (agent: typeof owner.agent) =>
      ((await agent.get(`${path}/messages`)).body as { read: boolean }[]).map((m) => m.read);

    expect(await reads(owner.agent)).toEqual([false, false, false]);
    expect(await reads(client.agent)).toEqual([false, false, false]);
    expect((await client.agent.get(path)).body).toMatchObject({
      unreadCount: 3,
      awaitingReply: true,
    });
    expect((await owner.agent.get(path)).body).toMatchObject({
      unreadCount: 0,
      awaitingReply: false,
    });

    const recorded = recordEvents(client.id, "messages_read");
    const ownerSocket = await TestSocket.open(server.url, { cookie: owner.agent.cookieHeader });
    try {
      const read = await client.agent.post(`${path}/read`, { messageId: sent[1].id });
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ success: true, message: "Marked as read" });
      const event = { type: "messages_read", clientId: client.id, messageId: sent[1].id };
      expect(await ownerSocket.waitFor((e) => e.type === "messages_read")).toEqual(event);
      expect(await reads(owner.agent)).toEqual([true, true, false]);
      expect(await reads(client.agent)).toEqual([true, true, false]);
      expect((await client.agent.get(path)).body).toMatchObject({ unreadCount: 1 });

      // The mark never moves back, and marking again announces nothing.
      expect((await client.agent.post(`${path}/read`, { messageId: sent[0].id })).status).toBe(200);
      expect((await client.agent.post(`${path}/read`, { messageId: sent[1].id })).status).toBe(200);
      expect(await recorded.before()).toEqual([event]);
      expect(await reads(owner.agent)).toEqual([true, true, false]);
    } finally {
      recorded.stop();
      ownerSocket.close();
    }

    // Answering marks everything before the answer read by the one who answers.
    const reply = (await client.agent.post(`${path}/messages`, { content: "reply" })).body;
    expect(reply.read).toBe(false);
    expect(await reads(owner.agent)).toEqual([true, true, true, false]);
    expect((await client.agent.get(path)).body).toMatchObject({
      unreadCount: 0,
      awaitingReply: false,
    });
    expect((await owner.agent.get("/api/clients")).body[0]).toMatchObject({
      unreadCount: 1,
      awaitingReply: true,
    });
    await owner.agent.post(`${path}/read`, { messageId: reply.id });
    expect((await owner.agent.get("/api/clients")).body[0]).toMatchObject({
      unreadCount: 0,
      awaitingReply: true,
    });
    expect(await reads(client.agent)).toEqual([true, true, true, true]);
  });

  it("refuses another conversation's message and malformed ids", async () => {
    const a = await conversation("Alice", "Anna");
    const b = await conversation("Bob", "Ben");
    const foreign = (await b.client.agent.post(`${b.path}/messages`, { content: "b's" })).body.id;
    const response = await a.owner.agent.post(`${a.path}/read`, { messageId: foreign });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ message: "Message not found" });
    expect((await a.owner.agent.post(`${a.path}/read`, { messageId: "nope" })).status).toBe(400);
    expect((await a.owner.agent.post(`${a.path}/read`, {})).status).toBe(400);
    // Bob's conversation is unchanged: Ben's message is still unread by Bob.
    expect((await b.owner.agent.get("/api/clients")).body[0]).toMatchObject({ unreadCount: 1 });
  });
});
