import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TestClock } from "../../../tests/support/clock";
import { addJoinedContact, type JoinedContact } from "../../../tests/support/contacts";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { addStaff } from "../../../tests/support/team";
import { TestSocket } from "../../../tests/support/ws-client";

// Scheduled send (issue 28, point 2): the API. The job that sends them is tested in
// server/jobs/scheduled-messages-instances.test.ts.

const clock = new TestClock();
let server: TestServer;
let A: SignedInOwner;
let admin: SignedInOwner;
let member: SignedInOwner;
let B: SignedInOwner;
let A1: JoinedClient;
let dora: JoinedContact;
let B1: JoinedClient;

beforeAll(async () => {
  server = await startTestServer({ clock });
  A = await signUpOwner(server, "Alice Owner");
  B = await signUpOwner(server, "Bob Owner");
  await setTier(A.id, "agency");
  A1 = await addJoinedClient(server, A, { name: "Carla Client" });
  dora = await addJoinedContact(server, A, A1.id, { name: "Dora Director" });
  B1 = await addJoinedClient(server, B, { name: "Client Of Bob" });
  admin = await addStaff(server, A, "admin");
  // A member who is not assigned to A1: the conversation does not exist for them.
  member = await addStaff(server, A, "member");
});
afterAll(() => server?.close());

const MINUTE = 60_000;
const inMinutes = (minutes: number) =>
  new Date(server.clock.now().getTime() + minutes * MINUTE).toISOString();

async function schedule(
  agent: TestAgent,
  body: Record<string, unknown>,
  clientId = A1.id,
): Promise<{ id: string; sendAt: string; content: string; createdAt: string }> {
  const answer = await agent.post(`/api/clients/${clientId}/messages`, body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

const scheduledIds = async (agent: TestAgent, clientId = A1.id) => {
  const answer = await agent.get(`/api/clients/${clientId}/scheduled`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.map((message: { id: string }) => message.id) as string[];
};

const conversationTexts = async (agent: TestAgent, clientId = A1.id) =>
  (await agent.get(`/api/clients/${clientId}/messages`)).body.map(
    (message: { content: string }) => message.content,
  ) as string[];

describe("scheduling a message", () => {
  it("answers 201 with the scheduled message, shown to the author's side only until sent", async () => {
    const sendAt = inMinutes(60);
    const answer = await A.agent.post(`/api/clients/${A1.id}/messages`, {
      content: "  Good morning Carla  ",
      sendAt,
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: expect.any(String),
      clientId: A1.id,
      content: "Good morning Carla",
      sendAt,
      status: "scheduled",
      author: { id: A.id, name: "Alice Owner" },
      visibility: "client",
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // The staff who have the client see it; the client's people never do.
    for (const agent of [A.agent, admin.agent]) {
      expect(await scheduledIds(agent)).toContain(answer.body.id);
    }
    for (const agent of [A1.agent, dora.agent]) {
      expect(await scheduledIds(agent)).not.toContain(answer.body.id);
    }
    // Not in the conversation of either side, nor in search.
    for (const agent of [A.agent, A1.agent]) {
      expect(await conversationTexts(agent)).not.toContain("Good morning Carla");
    }
    const found = await A.agent.get("/api/search?q=Carla");
    expect(JSON.stringify(found.body)).not.toContain("Good morning");
  });

  it("lists soonest first, with an internal note kept as one", async () => {
    const later = await schedule(A.agent, { content: "Later one", sendAt: inMinutes(300) });
    const note = await schedule(admin.agent, {
      content: "Remind the team",
      sendAt: inMinutes(200),
      visibility: "internal",
    });
    const list = (await A.agent.get(`/api/clients/${A1.id}/scheduled`)).body as {
      id: string;
      sendAt: string;
      visibility: string;
      author: { name: string };
    }[];
    const ours = list.filter((message) => [later.id, note.id].includes(message.id));
    expect(ours.map((message) => [message.id, message.visibility, message.author.name])).toEqual([
      [note.id, "internal", "Adam Admin"],
      [later.id, "client", "Alice Owner"],
    ]);
    const sendAts = list.map((message) => message.sendAt);
    expect(sendAts).toEqual([...sendAts].sort());
  });

  it.each([
    [{ sendAt: "tomorrow" }, "sendAt must be a date and time such as 2027-01-04T09:00:00+01:00"],
    [
      { sendAt: "2027-01-04T09:00" },
      "sendAt must be a date and time such as 2027-01-04T09:00:00+01:00",
    ],
    [{ sendAt: 12 }, "sendAt must be a date and time such as 2027-01-04T09:00:00+01:00"],
    [{ sendAt: "past" }, "Choose a time at least a minute from now"],
    [{ sendAt: "soon" }, "Choose a time at least a minute from now"],
    [{ sendAt: "next year" }, "Messages can be scheduled at most a year ahead"],
    [{ sendAt: "later", content: "   " }, "Message cannot be empty"],
  ])("refuses %j with a 400 that says why, storing nothing", async (fields, message) => {
    const times: Record<string, string> = {
      past: inMinutes(-5),
      soon: new Date(server.clock.now().getTime() + 30_000).toISOString(),
      "next year": inMinutes(366 * 24 * 60),
      later: inMinutes(60),
    };
    const sendAt =
      typeof fields.sendAt === "string" ? (times[fields.sendAt] ?? fields.sendAt) : fields.sendAt;
    const before = await scheduledIds(A.agent);
    const answer = await A.agent.post(`/api/clients/${A1.id}/messages`, {
      content: "Hello",
      ...fields,
      sendAt,
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message });
    expect(await scheduledIds(A.agent)).toEqual(before);
  });

  it("lets a client's person schedule too: their side sees it, the staff do not", async () => {
    const theirs = await schedule(A1.agent, { content: "Call me back", sendAt: inMinutes(90) });
    expect(theirs).toMatchObject({ status: "scheduled", author: { id: A1.userId } });
    expect(await scheduledIds(dora.agent)).toContain(theirs.id);
    for (const agent of [A.agent, admin.agent])
      expect(await scheduledIds(agent)).not.toContain(theirs.id);
    // Staff cannot touch it: for them it does not exist.
    expect((await A.agent.delete(`/api/messages/${theirs.id}`)).status).toBe(404);
    // A client's person cannot schedule an internal note.
    const note = await A1.agent.post(`/api/clients/${A1.id}/messages`, {
      content: "Secret",
      sendAt: inMinutes(90),
      visibility: "internal",
    });
    expect(note).toMatchObject({
      status: 403,
      body: { message: "Only the team can write internal notes" },
    });
  });

  it("keeps the Idempotency-Key behaviour: a retry answers the first result and stores nothing", async () => {
    const key = `schedule-${Date.now()}`;
    const body = { content: "Only once", sendAt: inMinutes(120) };
    const headers = { "Idempotency-Key": key };
    const first = await A.agent.request("POST", `/api/clients/${A1.id}/messages`, {
      json: body,
      headers,
    });
    const again = await A.agent.request("POST", `/api/clients/${A1.id}/messages`, {
      json: body,
      headers,
    });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const list = (await A.agent.get(`/api/clients/${A1.id}/scheduled`)).body as {
      content: string;
    }[];
    expect(list.filter((message) => message.content === "Only once")).toHaveLength(1);
  });
});

describe("changing a scheduled message", () => {
  it("lets its author edit the text and the time; a colleague gets 403, the client 404", async () => {
    const scheduled = await schedule(A.agent, { content: "Draft", sendAt: inMinutes(60) });
    const sendAt = inMinutes(24 * 60);
    const edited = await A.agent.patch(`/api/messages/${scheduled.id}`, {
      content: "Final text",
      sendAt,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ id: scheduled.id, content: "Final text", sendAt });
    const onlyText = await A.agent.patch(`/api/messages/${scheduled.id}`, { content: "Final" });
    expect(onlyText.body).toMatchObject({ content: "Final", sendAt });

    expect(await A.agent.patch(`/api/messages/${scheduled.id}`, {})).toMatchObject({
      status: 400,
      body: { message: "Give a new content or sendAt" },
    });
    expect(
      await A.agent.patch(`/api/messages/${scheduled.id}`, { sendAt: inMinutes(-1) }),
    ).toMatchObject({ status: 400, body: { message: "Choose a time at least a minute from now" } });
    expect(
      await admin.agent.patch(`/api/messages/${scheduled.id}`, { content: "x" }),
    ).toMatchObject({
      status: 403,
      body: { message: "Only its author can change or send a scheduled message" },
    });
    for (const agent of [A1.agent, dora.agent, B.agent, member.agent]) {
      const refused = await agent.patch(`/api/messages/${scheduled.id}`, { content: "x" });
      expect(refused.status).toBe(404);
    }
    const list = (await A.agent.get(`/api/clients/${A1.id}/scheduled`)).body as {
      id: string;
      content: string;
    }[];
    expect(list.find((message) => message.id === scheduled.id)?.content).toBe("Final");
  });

  it("cancels it for anyone of its side; it is never sent", async () => {
    const scheduled = await schedule(A.agent, { content: "Never sent", sendAt: inMinutes(2) });
    for (const agent of [A1.agent, B.agent, member.agent])
      expect((await agent.delete(`/api/messages/${scheduled.id}`)).status).toBe(404);
    const cancelled = await admin.agent.delete(`/api/messages/${scheduled.id}`);
    expect(cancelled).toMatchObject({
      status: 200,
      body: { success: true, message: "Scheduled message cancelled" },
    });
    expect(await scheduledIds(A.agent)).not.toContain(scheduled.id);
    expect((await A.agent.delete(`/api/messages/${scheduled.id}`)).status).toBe(404);
    clock.advance(3 * MINUTE);
    await server.jobs.runOnce("scheduled-messages");
    expect(await conversationTexts(A.agent)).not.toContain("Never sent");
  });

  it("sends it now as its author: in the conversation of both sides, off the list, once", async () => {
    const scheduled = await schedule(A.agent, {
      content: "Sent right away",
      sendAt: inMinutes(600),
    });
    expect((await admin.agent.post(`/api/messages/${scheduled.id}/send-now`)).status).toBe(403);
    expect((await A1.agent.post(`/api/messages/${scheduled.id}/send-now`)).status).toBe(404);
    const sent = await A.agent.post(`/api/messages/${scheduled.id}/send-now`);
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body).toMatchObject({ content: "Sent right away", senderRole: "owner" });
    // Dated when sent, not when written.
    expect(Date.parse(sent.body.createdAt)).toBeGreaterThan(Date.parse(scheduled.createdAt));
    for (const agent of [A.agent, A1.agent])
      expect(await conversationTexts(agent)).toContain("Sent right away");
    expect(await scheduledIds(A.agent)).not.toContain(scheduled.id);
    expect(await A.agent.post(`/api/messages/${scheduled.id}/send-now`)).toMatchObject({
      status: 404,
      body: { message: "Message not found" },
    });
  });
});

describe("who may see scheduled messages", () => {
  it("answers the authorization matrix", async () => {
    const scheduled = await schedule(A.agent, { content: "Matrix", sendAt: inMinutes(60) });
    const anonymous = server.agent();
    const path = `/api/clients/${A1.id}/scheduled`;
    expect((await anonymous.get(path)).status).toBe(401);
    expect((await anonymous.patch(`/api/messages/${scheduled.id}`, { content: "x" })).status).toBe(
      401,
    );
    expect((await anonymous.delete(`/api/messages/${scheduled.id}`)).status).toBe(401);
    expect((await anonymous.post(`/api/messages/${scheduled.id}/send-now`)).status).toBe(401);
    // Another workspace, its client, and an unassigned member: the conversation is not theirs.
    for (const agent of [B.agent, B1.agent, member.agent]) {
      expect(await agent.get(path)).toMatchObject({
        status: 404,
        body: { message: "Client not found" },
      });
      expect(
        await agent.post(`/api/clients/${A1.id}/messages`, {
          content: "x",
          sendAt: inMinutes(60),
        }),
      ).toMatchObject({ status: 404 });
      for (const answer of [
        await agent.patch(`/api/messages/${scheduled.id}`, { content: "x" }),
        await agent.delete(`/api/messages/${scheduled.id}`),
        await agent.post(`/api/messages/${scheduled.id}/send-now`),
      ])
        expect(answer).toMatchObject({ status: 404, body: { message: expect.any(String) } });
    }
    // An id that is nobody's scheduled message is left to the routes of sent messages.
    expect((await A.agent.patch(`/api/messages/not-an-id`, { content: "x" })).status).toBe(404);
    expect(await scheduledIds(A.agent)).toContain(scheduled.id);
  });

  it("tells the author's side's open pages that the list changed, never the other side", async () => {
    const staffSocket = await TestSocket.open(server.url, { cookie: admin.agent.cookieHeader });
    const clientSocket = await TestSocket.open(server.url, { cookie: A1.agent.cookieHeader });
    try {
      const scheduled = await schedule(A.agent, { content: "Live", sendAt: inMinutes(60) });
      await staffSocket.waitFor((event) => event.type === "scheduled_changed");
      await A.agent.delete(`/api/messages/${scheduled.id}`);
      await staffSocket.waitFor(
        () => staffSocket.events.filter((event) => event.type === "scheduled_changed").length === 2,
      );
      // A message published after ours reaches the client's socket after ours would have.
      await A.agent.post(`/api/clients/${A1.id}/messages`, { content: "Marker" });
      await clientSocket.waitFor((event) => event.type === "new_message");
      expect(clientSocket.events.filter((event) => event.type === "scheduled_changed")).toEqual([]);
      expect(staffSocket.events.find((event) => event.type === "scheduled_changed")).toEqual({
        type: "scheduled_changed",
        clientId: A1.id,
      });
    } finally {
      staffSocket.close();
      clientSocket.close();
    }
  });
});
