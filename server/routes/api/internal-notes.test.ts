import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../../tests/support/clock";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { testDatabase } from "../../../tests/support/database";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { TestPushService } from "../../../tests/support/push-endpoint";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { addStaff } from "../../../tests/support/team";
import { addJoinedContact, type JoinedContact } from "../../../tests/support/contacts";
import { TestSocket } from "../../../tests/support/ws-client";

// Issue 26, internal notes: the authorization matrix. Two workspaces, each with its owner, an
// admin, a member assigned to the first client ("assigned") and a member assigned to the
// second only ("unassigned" as far as the first client goes), and two joined clients, each with
// two contacts (its client user and a second person who joined by their own link, part 6).
// Every path a message takes is checked for who sees a note written in the first workspace's
// first client's conversation: the messages API (newest page, before, after, X-Has-More), both
// first screens, the websocket, search, the client's people, unanswered-message emails, push
// and a reply by email.

let server: TestServer;
let clock: TestClock;
const pushService = new TestPushService();
beforeAll(async () => {
  const origin = await pushService.start();
  // The notification sweep takes every due row of its database: this file gets its own.
  server = await startTestServer({
    db: await testDatabase({ isolated: true }),
    inboundSmtp: true,
    env: { PUSH_TEST_ORIGINS: origin },
  });
  clock = server.clock as TestClock;
  pushService.vapidPublicKey = server.services.config.vapid.publicKey;
});
afterAll(async () => {
  await server?.close();
  await server?.db.destroy();
  await pushService.stop();
});

interface Workspace {
  owner: SignedInOwner;
  admin: SignedInOwner;
  assigned: SignedInOwner;
  unassigned: SignedInOwner;
  first: JoinedClient;
  second: JoinedClient;
  /** Each client's second contact. */
  firstDora: JoinedContact;
  secondDora: JoinedContact;
}

async function workspace(label: string): Promise<Workspace> {
  const owner = await signUpOwner(server, `${label} Owner`);
  await setTier(owner.id, "agency");
  const admin = await addStaff(server, owner, "admin", `${label} Admin`);
  const assigned = await addStaff(server, owner, "member", `${label} Assigned`);
  const unassigned = await addStaff(server, owner, "member", `${label} Unassigned`);
  const first = await addJoinedClient(server, owner, { name: `${label} First` });
  const second = await addJoinedClient(server, owner, { name: `${label} Second` });
  for (const [client, member] of [
    [first, assigned],
    [second, unassigned],
  ] as const) {
    const put = await owner.agent.put(`/api/clients/${client.id}/assignees`, {
      userIds: [member.id],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
  }
  const firstDora = await addJoinedContact(server, owner, first.id, { name: `${label} Dora 1` });
  const secondDora = await addJoinedContact(server, owner, second.id, { name: `${label} Dora 2` });
  return { owner, admin, assigned, unassigned, first, second, firstDora, secondDora };
}

let a: Workspace;
let b: Workspace;

type Who = "staff" | "client" | "outsider";
interface Actor {
  name: string;
  agent: TestAgent;
  /** What the actor is to workspace A's first client. */
  is: Who;
  role: "owner" | "client";
}

/** Every actor of the matrix, and what each is to A's first client (where the notes go). */
function actors(): Actor[] {
  const list: Actor[] = [];
  for (const [label, w] of [
    ["A", a],
    ["B", b],
  ] as const) {
    const ours = w === a;
    for (const key of ["owner", "admin", "assigned", "unassigned"] as const) {
      const staff = ours && key !== "unassigned";
      list.push({
        name: `${label} ${key}`,
        agent: w[key].agent,
        is: staff ? "staff" : "outsider",
        role: "owner",
      });
    }
    list.push({
      name: `${label} first client`,
      agent: w.first.agent,
      is: ours ? "client" : "outsider",
      role: "client",
    });
    list.push({
      name: `${label} first client's second contact`,
      agent: w.firstDora.agent,
      is: ours ? "client" : "outsider",
      role: "client",
    });
    list.push({
      name: `${label} second client`,
      agent: w.second.agent,
      is: "outsider",
      role: "client",
    });
    list.push({
      name: `${label} second client's second contact`,
      agent: w.secondDora.agent,
      is: "outsider",
      role: "client",
    });
  }
  return list;
}

beforeAll(async () => {
  a = await workspace("A");
  b = await workspace("B");
});

const noteWord = () => `secretnote${Math.random().toString(36).slice(2, 10)}`;

async function post(
  agent: TestAgent,
  clientId: string,
  content: string,
  visibility?: "client" | "internal",
) {
  const body = visibility === undefined ? { content } : { content, visibility };
  return agent.post(`/api/clients/${clientId}/messages`, body);
}

async function write(
  agent: TestAgent,
  clientId: string,
  content: string,
  visibility?: "client" | "internal",
): Promise<string> {
  const sent = await post(agent, clientId, content, visibility);
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return sent.body.id as string;
}

const ids = (body: { id: string }[]) => body.map((message) => message.id);

describe("writing a note", () => {
  it("is for the staff who have the client: its client gets 403, anyone else 404", async () => {
    const expected: Record<Who, number> = { staff: 201, client: 403, outsider: 404 };
    for (const actor of actors()) {
      const sent = await post(actor.agent, a.first.id, `Note by ${actor.name}`, "internal");
      expect(sent.status, `${actor.name}: ${JSON.stringify(sent.body)}`).toBe(expected[actor.is]);
      if (actor.is === "staff") {
        expect(sent.body).toMatchObject({ visibility: "internal", senderRole: "owner" });
      } else if (actor.is === "client") {
        expect(sent.body).toEqual({ message: "Only the team can write internal notes" });
      } else {
        expect(sent.body).toEqual({ message: "Client not found" });
      }
    }
  });

  it("takes client or internal only, client by default, and never an empty note", async () => {
    const wrong = await a.owner.agent.post(`/api/clients/${a.first.id}/messages`, {
      content: "Hello",
      visibility: "private",
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: "Visibility must be client or internal" });
    const empty = await post(a.owner.agent, a.first.id, "   ", "internal");
    expect(empty.status).toBe(400);
    const plain = await post(a.owner.agent, a.first.id, "Plain hello");
    expect(plain.body.visibility).toBe("client");
    const clientSays = await post(a.first.agent, a.first.id, "Hello back", "client");
    expect(clientSays.status).toBe(201);
    expect(clientSays.body.visibility).toBe("client");
  });
});

describe("reading the conversation", () => {
  it("shows a note to the staff who have the client only, in every page and first screen", async () => {
    const before = await write(a.owner.agent, a.first.id, "Before the note");
    const word = noteWord();
    const note = await write(a.admin.agent, a.first.id, `Internal: ${word}`, "internal");
    const after = await write(a.assigned.agent, a.first.id, "After the note");

    for (const actor of actors()) {
      const page = await actor.agent.get(`/api/clients/${a.first.id}/messages`);
      if (actor.is === "outsider") {
        expect(page.status, actor.name).toBe(404);
        continue;
      }
      expect(page.status, actor.name).toBe(200);
      const seen = ids(page.body);
      expect(seen, actor.name).toContain(after);
      expect(seen.includes(note), actor.name).toBe(actor.is === "staff");
      expect(JSON.stringify(page.body).includes(word), actor.name).toBe(actor.is === "staff");

      // Paging around the note: the client neither sees it nor may page from it.
      const older = await actor.agent.get(
        `/api/clients/${a.first.id}/messages?before=${after}&limit=1`,
      );
      expect(older.status).toBe(200);
      expect(ids(older.body), actor.name).toEqual([actor.is === "staff" ? note : before]);
      expect(older.headers.get("x-has-more")).toBe("true");
      const newer = await actor.agent.get(
        `/api/clients/${a.first.id}/messages?after=${before}&limit=1`,
      );
      expect(ids(newer.body), actor.name).toEqual([actor.is === "staff" ? note : after]);
      expect(newer.headers.get("x-has-more"), actor.name).toBe(String(actor.is === "staff"));
      for (const cursor of ["before", "after"]) {
        const fromNote = await actor.agent.get(
          `/api/clients/${a.first.id}/messages?${cursor}=${note}`,
        );
        expect(fromNote.status, `${actor.name} ${cursor}`).toBe(actor.is === "staff" ? 200 : 404);
      }
      const read = await actor.agent.post(`/api/clients/${a.first.id}/read`, {
        messageId: note,
      });
      expect(read.status, actor.name).toBe(actor.is === "staff" ? 200 : 404);
      const versions = await actor.agent.get(`/api/messages/${note}/versions`);
      expect(versions.status, actor.name).toBe(actor.is === "staff" ? 200 : 404);
    }

    // The portal's first screen: the client's own, without the note.
    for (const actor of actors()) {
      const portal = await actor.agent.get(`/api/portal/${a.first.id}`);
      const expected = actor.is === "client" ? 200 : actor.is === "staff" ? 403 : 404;
      expect(portal.status, actor.name).toBe(expected);
      if (actor.is !== "client") continue;
      const seen = ids(portal.body.messages.messages);
      expect(seen).toContain(after);
      expect(seen).not.toContain(note);
      expect(JSON.stringify(portal.body)).not.toContain(word);
    }

    // The dashboard's first screen: the staff who have the client get the note with it.
    for (const actor of actors()) {
      const dashboard = await actor.agent.get(`/api/dashboard?client=${a.first.id}`);
      if (actor.role === "client") {
        expect(dashboard.status, actor.name).toBe(403);
        continue;
      }
      expect(dashboard.status, actor.name).toBe(200);
      const conversation = dashboard.body.conversation;
      if (actor.is !== "staff") {
        expect(conversation, actor.name).toBeNull();
        expect(JSON.stringify(dashboard.body)).not.toContain(word);
        continue;
      }
      const shown = conversation.messages.messages.find(
        (message: { id: string }) => message.id === note,
      );
      expect(shown, actor.name).toMatchObject({
        visibility: "internal",
        content: `Internal: ${word}`,
      });
    }
  });

  it("counts a note neither as unread nor as awaiting a reply, nor as the staff's answer", async () => {
    const c = await addJoinedClient(server, a.owner, { name: "A Third" });
    await write(c.agent, c.id, "Can you send the invoice?");
    await write(a.owner.agent, c.id, "Check the invoice number first", "internal");
    const asClient = await c.agent.get(`/api/clients/${c.id}`);
    expect(asClient.body).toMatchObject({ unreadCount: 0, awaitingReply: false });
    const asOwner = await a.owner.agent.get(`/api/clients/${c.id}`);
    // Still the client's question waiting: a note is not an answer.
    expect(asOwner.body).toMatchObject({ unreadCount: 1, awaitingReply: true });
    await write(a.owner.agent, c.id, "Here it is");
    expect((await c.agent.get(`/api/clients/${c.id}`)).body).toMatchObject({
      unreadCount: 1,
      awaitingReply: true,
    });
    expect((await a.owner.agent.get(`/api/clients/${c.id}`)).body).toMatchObject({
      awaitingReply: false,
    });
  });
});

describe("the websocket", () => {
  it("sends a note's event to the staff who have the client, and nothing of it to anyone else", async () => {
    const everyone = actors();
    const sockets = await Promise.all(
      everyone.map((actor) => TestSocket.open(server.url, { cookie: actor.agent.cookieHeader })),
    );
    try {
      const word = noteWord();
      const note = await write(a.assigned.agent, a.first.id, `Socket ${word}`, "internal");
      // Once one socket has it, the note's event has gone to every socket that gets it (one
      // delivery writes to all of them); whatever is published after it arrives after it.
      const ownerSocket = sockets[everyone.findIndex((actor) => actor.agent === a.owner.agent)]!;
      await ownerSocket.waitFor((event) => event.messageId === note);
      const reply = await write(a.owner.agent, a.first.id, "Socket reply");
      // A later message in every conversation: each socket's signal that the note's event,
      // published before, has come or will not come.
      const signals = new Map<string, string>();
      for (const w of [a, b])
        for (const client of [w.first, w.second])
          if (client !== a.first)
            signals.set(client.id, await write(w.owner.agent, client.id, "Signal"));
      signals.set(a.first.id, reply);

      for (const [index, actor] of everyone.entries()) {
        const socket = sockets[index]!;
        // Each actor's own conversations' signals arrive.
        const mine = actor.role === "client" ? [actorClientId(actor)] : staffClientIds(actor);
        for (const clientId of mine) {
          await socket.waitFor(
            (event) => event.type === "new_message" && event.messageId === signals.get(clientId),
          );
        }
        const noteEvents = socket.eventsFor(note);
        if (actor.is === "staff") {
          expect(noteEvents, actor.name).toHaveLength(1);
          expect(noteEvents[0]?.message).toMatchObject({
            visibility: "internal",
            content: `Socket ${word}`,
          });
        } else {
          expect(noteEvents, actor.name).toEqual([]);
        }
        expect(JSON.stringify(socket.events).includes(word), actor.name).toBe(actor.is === "staff");
        if (actor.is === "client") {
          // The reply that followed arrives, and names the message before it as the client
          // knows the conversation: never the note.
          const replyEvent = socket.eventsFor(reply)[0];
          expect(replyEvent?.afterId).not.toBe(note);
        }
      }
    } finally {
      for (const socket of sockets) socket.ws.close();
    }
  });
});

function actorClientId(actor: Actor): string {
  for (const w of [a, b]) {
    if (actor.agent === w.first.agent || actor.agent === w.firstDora.agent) return w.first.id;
    if (actor.agent === w.second.agent || actor.agent === w.secondDora.agent) return w.second.id;
  }
  throw new Error(`no client for ${actor.name}`);
}

function staffClientIds(actor: Actor): string[] {
  for (const w of [a, b]) {
    if (actor.agent === w.owner.agent || actor.agent === w.admin.agent)
      return [w.first.id, w.second.id];
    if (actor.agent === w.assigned.agent) return [w.first.id];
    if (actor.agent === w.unassigned.agent) return [w.second.id];
  }
  throw new Error(`no staff ${actor.name}`);
}

describe("the client's people", () => {
  it("are listed to both sides of the conversation, added only by its staff, hidden from everyone else", async () => {
    const path = `/api/clients/${a.first.id}/contacts`;
    for (const actor of actors()) {
      const listed = await actor.agent.get(path);
      expect(listed.status, actor.name).toBe(actor.is === "outsider" ? 404 : 200);
      if (listed.status === 200)
        expect(
          (listed.body as { name: string }[]).map((contact) => contact.name),
          actor.name,
        ).toEqual(["A First", "A Dora 1"]);
      const added = await actor.agent.post(path, {
        name: "Probe",
        email: `probe-${Math.random().toString(36).slice(2)}@example.test`,
        sendInviteEmail: false,
      });
      const expected: Record<Who, number> = { staff: 201, client: 403, outsider: 404 };
      expect(added.status, actor.name).toBe(expected[actor.is]);
      if (added.status === 201) {
        const removed = await actor.agent.delete(`${path}/${added.body.id}`);
        expect(removed.status, actor.name).toBe(200);
      }
    }
    // Another client's contact id answers 404 through this client, even to its staff.
    const elsewhere = await a.owner.agent.delete(`${path}/${a.secondDora.id}`);
    expect(elsewhere.status).toBe(404);
  });
});

describe("search", () => {
  it("finds a note for the staff who have the client only", async () => {
    const word = noteWord();
    const note = await write(a.owner.agent, a.first.id, `Searchable ${word}`, "internal");
    for (const actor of actors()) {
      const all = await actor.agent.get(`/api/search?q=${word}`);
      expect(all.status, actor.name).toBe(200);
      const found = (all.body.results as { messageId: string }[]).map((hit) => hit.messageId);
      expect(found, actor.name).toEqual(actor.is === "staff" ? [note] : []);
      // Marked as a note where it is found.
      if (actor.is === "staff") expect(all.body.results[0].visibility).toBe("internal");
      const one = await actor.agent.get(`/api/search?q=${word}&clientId=${a.first.id}`);
      expect(one.status, actor.name).toBe(actor.is === "outsider" ? 404 : 200);
      if (one.status === 200)
        expect(one.body.results.length, actor.name).toBe(actor.is === "staff" ? 1 : 0);
    }
  });
});

describe("unanswered-message emails and replies by email", () => {
  const sweep = async () => {
    clock.advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    await server.mailSettled();
  };

  it("never mails a note, schedules nothing for it, and keeps the staff's email due", async () => {
    const c = await addJoinedClient(server, a.owner, { name: "A Mail" });
    const dora = await addJoinedContact(server, a.owner, c.id, { name: "Dora Mail" });
    await write(c.agent, c.id, "Where is the draft?");
    const word = noteWord();
    await write(a.admin.agent, c.id, `Mail ${word}`, "internal");
    await sweep();
    // The owner's email about the client's question still comes: a note answers nothing.
    const ownerMail = await server.smtp.waitFor(a.owner.email, (mail) =>
      mail.text.includes("Where is the draft?"),
    );
    expect(ownerMail.text).not.toContain(word);
    // Nothing reached the client's people.
    for (const email of [c.email, dora.email])
      expect(
        server.smtp.mailsTo(email).filter((mail) => /new message/i.test(mail.subject)),
      ).toEqual([]);

    // The owner answers by email: a message the client sees, never a note.
    const replyTo = ownerMail.parsed.replyTo?.value[0]?.address;
    expect(replyTo).toBeTruthy();
    const transport = nodemailer.createTransport({
      host: "127.0.0.1",
      port: server.inbound!.port,
      secure: false,
      ignoreTLS: true,
    });
    try {
      await transport.sendMail({
        from: a.owner.email,
        to: replyTo,
        subject: `Re: ${ownerMail.subject}`,
        text: "The draft comes tomorrow.",
      });
    } finally {
      transport.close();
    }
    await server.services.events.idle();
    const seen = (await c.agent.get(`/api/clients/${c.id}/messages`)).body as {
      content: string;
      visibility: string;
    }[];
    expect(seen.map((message) => message.content)).toEqual([
      "Where is the draft?",
      "The draft comes tomorrow.",
    ]);
    expect(seen.every((message) => message.visibility === "client")).toBe(true);

    // The client's email, once due, quotes the reply and never the note.
    await sweep();
    for (const email of [c.email, dora.email]) {
      const clientMail = await server.smtp.waitFor(email, (mail) =>
        mail.text.includes("The draft comes tomorrow."),
      );
      expect(clientMail.text).not.toContain(word);
    }
  });
});

describe("push", () => {
  it("pushes no note to the phones of the client's people", async () => {
    const c = await addJoinedClient(server, a.owner, { name: "A Push" });
    const dora = await addJoinedContact(server, a.owner, c.id, { name: "Dora Push" });
    const phones = [pushService.subscribe(), pushService.subscribe()];
    expect((await c.agent.post("/api/push/subscriptions", phones[0])).status).toBe(201);
    expect((await dora.agent.post("/api/push/subscriptions", phones[1])).status).toBe(201);
    const word = noteWord();
    await write(a.admin.agent, c.id, `Push ${word}`, "internal");
    await write(a.admin.agent, c.id, "Pushed reply");
    for (const phone of phones) {
      const [push, ...more] = await pushService.waitForPushes(phone.endpoint);
      expect(push?.payload.body).toBe("Pushed reply");
      await server.services.events.idle();
      await server.services.afterAnswer.idle();
      expect(more).toEqual([]);
      expect(pushService.pushesTo(phone.endpoint)).toHaveLength(1);
    }
  });
});
