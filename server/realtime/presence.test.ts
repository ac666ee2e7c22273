import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PresentPerson } from "../../shared/realtime-presence";
import { addJoinedClient, type JoinedClient, setTier } from "../../tests/support/conversations";
import { usingPostgres } from "../../tests/support/database";
import { type SignedInOwner, signUpOwner } from "../../tests/support/factories";
import { startTestServer, type TestServer } from "../../tests/support/server";
import { addStaff } from "../../tests/support/team";
import { type RealtimeEvent, TestSocket } from "../../tests/support/ws-client";

// Issue 26, presence: staff who have a client see which colleagues have its conversation open
// and who is typing in it; nobody else hears of it (an unassigned member, the client, another
// workspace), and a frame about a client one cannot see is ignored without a word.

let server: TestServer;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await server?.close();
});

interface Team {
  owner: SignedInOwner;
  admin: SignedInOwner;
  assigned: SignedInOwner;
  unassigned: SignedInOwner;
  client: JoinedClient;
}

async function team(target: TestServer = server): Promise<Team> {
  const owner = await signUpOwner(target, "Olivia Owner");
  await setTier(owner.id, "agency");
  const admin = await addStaff(target, owner, "admin", "Adam Admin");
  const assigned = await addStaff(target, owner, "member", "Sam Staff");
  const unassigned = await addStaff(target, owner, "member", "Una Unassigned");
  const client = await addJoinedClient(target, owner, { name: "Carla Client" });
  const put = await owner.agent.put(`/api/clients/${client.id}/assignees`, {
    userIds: [assigned.id],
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return { owner, admin, assigned, unassigned, client };
}

async function open(
  who: { agent: { cookieHeader: string } },
  target: TestServer = server,
): Promise<TestSocket> {
  const socket = await TestSocket.open(target.url, { cookie: who.agent.cookieHeader });
  sockets.push(socket);
  return socket;
}

const presence = (clientId: string, state: "viewing" | "typing" | "idle") => ({
  type: "presence",
  clientId,
  state,
});

const presenceEvents = (socket: TestSocket) =>
  socket.events.filter((event) => event.type === "presence");

/** The newest presence list `socket` holds for `clientId`, as "Name state" lines. */
function latest(socket: TestSocket, clientId: string): string[] | null {
  const event = presenceEvents(socket)
    .filter((e) => e.clientId === clientId)
    .at(-1);
  return event ? peopleOf(event) : null;
}

function peopleOf(event: RealtimeEvent): string[] {
  const people = (event as { people?: PresentPerson[] }).people ?? [];
  return people.map((person) => `${person.name} ${person.state}`);
}

/** Waits until `socket`'s newest list for `clientId` is `expected`. */
function waitForList(socket: TestSocket, clientId: string, expected: string[]) {
  return expect.poll(() => latest(socket, clientId), { timeout: 5_000 }).toEqual(expected);
}

describe("presence over the websocket", () => {
  it("shows staff who have the client each other viewing and typing, and no one else anything", async () => {
    const a = await team();
    const outsider = await signUpOwner(server, "Otto Outsider");
    const owner = await open(a.owner);
    const admin = await open(a.admin);
    const assigned = await open(a.assigned);
    const unassigned = await open(a.unassigned);
    const client = await open(a.client);
    const other = await open(outsider);
    const id = a.client.id;

    owner.send(presence(id, "viewing"));
    // Arriving, the owner is told who is there already: nobody.
    await waitForList(owner, id, []);
    await waitForList(admin, id, ["Olivia Owner viewing"]);
    await waitForList(assigned, id, ["Olivia Owner viewing"]);

    assigned.send(presence(id, "viewing"));
    await waitForList(assigned, id, ["Olivia Owner viewing"]);
    await waitForList(owner, id, ["Sam Staff viewing"]);
    assigned.send(presence(id, "typing"));
    await waitForList(owner, id, ["Sam Staff typing"]);
    await waitForList(admin, id, ["Olivia Owner viewing", "Sam Staff typing"]);
    const picture = (presenceEvents(owner).at(-1) as { people: PresentPerson[] }).people[0];
    expect(picture).toEqual({
      userId: a.assigned.id,
      name: "Sam Staff",
      picture: null,
      state: "typing",
    });

    // Ignored: an unassigned member, the client and another workspace speaking of this
    // client; the client's own typing is not shown either.
    unassigned.send(presence(id, "viewing"));
    client.send(presence(id, "typing"));
    other.send(presence(id, "viewing"));
    for (const socket of [unassigned, client, other]) await socket.roundTrip();
    // A later change that does reach the staff: the ignored frames, read before it, left no trace.
    assigned.send(presence(id, "viewing"));
    await waitForList(admin, id, ["Olivia Owner viewing", "Sam Staff viewing"]);
    await waitForList(owner, id, ["Sam Staff viewing"]);
    for (const socket of [unassigned, client, other]) expect(presenceEvents(socket)).toEqual([]);

    // Leaving (the tab hidden) and closing the socket both end one's presence.
    assigned.send(presence(id, "idle"));
    await waitForList(owner, id, []);
    await waitForList(admin, id, ["Olivia Owner viewing"]);
    assigned.send(presence(id, "typing"));
    await waitForList(owner, id, ["Sam Staff typing"]);
    assigned.close();
    await waitForList(owner, id, []);
    await waitForList(admin, id, ["Olivia Owner viewing"]);
    for (const socket of [unassigned, client, other]) expect(presenceEvents(socket)).toEqual([]);
  });

  it("one person with two tabs is listed once, typing when either tab types", async () => {
    const a = await team();
    const owner = await open(a.owner);
    const first = await open(a.assigned);
    const second = await open(a.assigned);
    const id = a.client.id;
    first.send(presence(id, "viewing"));
    await waitForList(owner, id, ["Sam Staff viewing"]);
    second.send(presence(id, "typing"));
    await waitForList(owner, id, ["Sam Staff typing"]);
    second.close();
    await waitForList(owner, id, ["Sam Staff viewing"]);
    // Opening another conversation on the same socket leaves this one.
    const elsewhere = await addJoinedClient(server, a.owner, { name: "Elsa Elsewhere" });
    const put = await a.owner.agent.put(`/api/clients/${elsewhere.id}/assignees`, {
      userIds: [a.assigned.id],
    });
    expect(put.status).toBe(200);
    first.send(presence(elsewhere.id, "viewing"));
    await waitForList(owner, id, []);
    await waitForList(owner, elsewhere.id, ["Sam Staff viewing"]);
  });

  it("a member who loses the client leaves its conversation at once", async () => {
    const a = await team();
    const owner = await open(a.owner);
    const assigned = await open(a.assigned);
    const id = a.client.id;
    assigned.send(presence(id, "typing"));
    await waitForList(owner, id, ["Sam Staff typing"]);
    const put = await a.owner.agent.put(`/api/clients/${id}/assignees`, {
      userIds: [a.unassigned.id],
    });
    expect(put.status).toBe(200);
    await waitForList(owner, id, []);
    // And what they say about it now is ignored.
    assigned.send(presence(id, "viewing"));
    await assigned.roundTrip();
    const admin = await open(a.admin);
    admin.send(presence(id, "viewing"));
    await waitForList(owner, id, ["Adam Admin viewing"]);
    expect(latest(admin, id)).toEqual([]);
  });

  it("ignores malformed frames and a socket's frames past its budget, and keeps the socket", async () => {
    const a = await team();
    const owner = await open(a.owner);
    const sender = await open(a.admin);
    const witness = await open(a.assigned);
    const id = a.client.id;
    for (const junk of [
      "not json",
      "{}",
      { type: "presence", clientId: id, state: "dancing" },
      { type: "presence", clientId: "not-a-uuid", state: "viewing" },
      { type: "presence", clientId: randomUUID(), state: "viewing" },
      { type: "subscribe", clientId: id },
      { type: "presence", clientId: id },
    ]) {
      sender.send(junk);
    }
    sender.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    await sender.roundTrip();
    expect(sender.isOpen).toBe(true);

    // Fifty-one frames at once: viewing, idle, viewing, ..., viewing. Past the budget (a burst
    // of 10, about 2 a second) they are dropped, so the sender ends as its last accepted
    // frame left it (idle), not as its last frame said.
    // A fresh socket of the same person: the junk above spent most of the first one's budget.
    const flooder = await open(a.admin);
    for (let i = 0; i <= 50; i += 1) flooder.send(presence(id, i % 2 === 0 ? "viewing" : "idle"));
    await flooder.roundTrip();
    expect(flooder.isOpen).toBe(true);
    witness.send(presence(id, "viewing"));
    await waitForList(owner, id, ["Sam Staff viewing"]);
    expect(latest(owner, id)).toEqual(["Sam Staff viewing"]);
  });
});

describe("presence that nobody ends", () => {
  let quick: TestServer;
  beforeAll(async () => {
    quick = await startTestServer({
      realtime: { presence: { heartbeatMs: 200, expiryMs: 600, typingMs: 400 } },
    });
  });
  afterAll(() => quick?.close());

  it("typing turns back to viewing, and an entry no instance announces again expires", async () => {
    const a = await team(quick);
    const owner = await open(a.owner, quick);
    const id = a.client.id;
    owner.send(presence(id, "viewing"));
    await waitForList(owner, id, []);
    // As an instance that then dies would announce its socket: never again.
    await quick.services.realtime.announcePresence({
      clientId: id,
      connectionId: randomUUID(),
      userId: a.assigned.id,
      name: "Sam Staff",
      picture: null,
      state: "typing",
    });
    await waitForList(owner, id, ["Sam Staff typing"]);
    await waitForList(owner, id, ["Sam Staff viewing"]);
    await waitForList(owner, id, []);
    // The owner's own socket, announced by its live instance, stays: the assigned member sees it.
    const assigned = await open(a.assigned, quick);
    assigned.send(presence(id, "viewing"));
    await waitForList(assigned, id, ["Olivia Owner viewing"]);
  });
});

// Skipped on PGlite: an embedded database lives in one process, so there is no second instance.
describe.skipIf(!usingPostgres)("presence across two instances (PostgreSQL only)", () => {
  let second: TestServer;
  beforeAll(async () => {
    second = await startTestServer({ db: server.db });
  });
  afterAll(() => second?.close());

  it("staff on different instances see each other, and a closed socket leaves at once", async () => {
    const a = await team();
    const owner = await open(a.owner, server);
    const assigned = await open(a.assigned, second);
    const unassigned = await open(a.unassigned, second);
    const client = await open(a.client, second);
    const id = a.client.id;
    owner.send(presence(id, "viewing"));
    await waitForList(assigned, id, ["Olivia Owner viewing"]);
    assigned.send(presence(id, "viewing"));
    // The assigned member learns who was there on arriving, from their own instance's table.
    await waitForList(owner, id, ["Sam Staff viewing"]);
    assigned.send(presence(id, "typing"));
    await waitForList(owner, id, ["Sam Staff typing"]);
    assigned.close();
    await waitForList(owner, id, []);
    expect(presenceEvents(unassigned)).toEqual([]);
    expect(presenceEvents(client)).toEqual([]);
  });

  it("a socket on a newer instance is told of those already there", async () => {
    const a = await team();
    const owner = await open(a.owner, server);
    const id = a.client.id;
    owner.send(presence(id, "viewing"));
    await owner.roundTrip();
    const third = await startTestServer({ db: server.db });
    try {
      const assigned = await open(a.assigned, third);
      assigned.send(presence(id, "viewing"));
      await waitForList(owner, id, ["Sam Staff viewing"]);
      // Its instance heard of the owner only through the others' answer to its arrival.
      await waitForList(assigned, id, ["Olivia Owner viewing"]);
    } finally {
      await third.close();
    }
  });
});
