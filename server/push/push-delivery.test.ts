import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConversation } from "../../tests/support/factories";
import { minimalPdf } from "../../tests/support/pdf";
import { TestPushService } from "../../tests/support/push-endpoint";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { uploadFile } from "../../tests/support/storage-files";
import { addTeamMember } from "../../tests/support/team";
import { TestSocket } from "../../tests/support/ws-client";
import { PushSubscription } from "../models";

let server: TestServer;
const pushService = new TestPushService();
beforeAll(async () => {
  const origin = await pushService.start();
  server = await startTestServer({ env: { PUSH_TEST_ORIGINS: origin } });
  pushService.vapidPublicKey = server.services.config.vapid.publicKey;
});
afterAll(async () => {
  await server?.close();
  await pushService.stop();
});

/** An owner and a joined client whose phone turned notifications on. */
async function conversationWithClientPhone(ownerName = "Olivia Owner") {
  const { owner, client } = await startConversation(server, { ownerName });
  const phone = pushService.subscribe();
  expect((await client.agent.post("/api/push/subscriptions", phone)).status).toBe(201);
  return { owner, client, phone };
}

const send = (
  agent: { post: (path: string, body: unknown) => Promise<{ status: number }> },
  clientId: string,
  content: string,
) => agent.post(`/api/clients/${clientId}/messages`, { content });

describe("a team's pushes (issue 26)", () => {
  it("go to the assigned members only, and name the member who wrote to the client", async () => {
    const { owner, client, phone } = await conversationWithClientPhone("Olivia Owner");
    const [alex, bea, uma] = await Promise.all([
      addTeamMember(server, owner, { fullName: "Alex Assigned" }),
      addTeamMember(server, owner, { fullName: "Bea Assigned" }),
      addTeamMember(server, owner, { fullName: "Uma Unassigned" }),
    ]);
    const laptops = new Map<string, ReturnType<typeof pushService.subscribe>>();
    for (const [name, agent] of [
      ["owner", owner.agent],
      ["alex", alex.agent],
      ["bea", bea.agent],
      ["uma", uma.agent],
    ] as const) {
      const laptop = pushService.subscribe();
      expect((await agent.post("/api/push/subscriptions", laptop)).status).toBe(201);
      laptops.set(name, laptop);
    }
    const assigned = await owner.agent.put(`/api/clients/${client.id}/assignees`, {
      userIds: [alex.id, bea.id],
    });
    expect(assigned.status).toBe(200);

    expect((await send(client.agent, client.id, "Who has my project?")).status).toBe(201);
    for (const name of ["alex", "bea"]) {
      const [push] = await pushService.waitForPushes(laptops.get(name)!.endpoint);
      expect(push?.payload).toMatchObject({ title: "Carla Client", body: "Who has my project?" });
    }
    await server.services.events.idle();
    await server.services.afterAnswer.idle();
    expect(pushService.pushesTo(laptops.get("owner")!.endpoint)).toEqual([]);
    expect(pushService.pushesTo(laptops.get("uma")!.endpoint)).toEqual([]);

    expect((await send(alex.agent, client.id, "I do, Alex here.")).status).toBe(201);
    const [push] = await pushService.waitForPushes(phone.endpoint);
    expect(push?.payload).toMatchObject({
      title: "Alex Assigned · Olivia Owner",
      body: "I do, Alex here.",
    });
    // The owner's own message keeps the agency alone.
    expect((await send(owner.agent, client.id, "And I am the owner.")).status).toBe(201);
    const pushes = await pushService.waitForPushes(phone.endpoint, 2);
    expect(pushes[1]?.payload.title).toBe("Olivia Owner");
  });
});

describe("a new message pushed to the recipient's phone", () => {
  it("reaches a client without an open socket: the sender's name, the first 100 characters, the conversation", async () => {
    const { owner, client, phone } = await conversationWithClientPhone("Olivia Ortega");
    const text = `Here is the plan for next week. ${"We start on Monday with the kick-off call. ".repeat(4)}`;
    expect((await send(owner.agent, client.id, text)).status).toBe(201);
    const [push] = await pushService.waitForPushes(phone.endpoint);
    expect(push?.payload).toEqual({
      title: "Olivia Ortega",
      body: `${Array.from(text.trim()).slice(0, 100).join("")}…`,
      url: `${server.url}/client/${client.id}`,
      tag: `conversation-${client.id}`,
    });
    expect(push?.headers.urgency).toBe("high");
    expect(pushService.refused).toEqual([]);
    await server.services.events.idle();
    await server.services.afterAnswer.idle();
    const row = await PushSubscription.query().findOne({ endpoint: phone.endpoint });
    expect(row?.lastSuccessAt).toBeInstanceOf(Date);
  });

  it("shows a short message whole, and reaches the owner's browser with the client's name and dashboard link", async () => {
    const { owner, client } = await conversationWithClientPhone();
    const laptop = pushService.subscribe();
    await owner.agent.post("/api/push/subscriptions", laptop);
    expect((await send(client.agent, client.id, "Looks great, thanks! 🎉")).status).toBe(201);
    const [push] = await pushService.waitForPushes(laptop.endpoint);
    expect(push?.payload).toEqual({
      title: "Carla Client",
      body: "Looks great, thanks! 🎉",
      url: `${server.url}/?client=${client.id}`,
      tag: `conversation-${client.id}`,
    });
  });

  it("announces a file with its name", async () => {
    const { owner, client, phone } = await conversationWithClientPhone();
    expect((await uploadFile(owner.agent, client.id, minimalPdf(), "brief.pdf")).status).toBe(201);
    const [push] = await pushService.waitForPushes(phone.endpoint);
    expect(push?.payload.body).toBe("Sent a file: brief.pdf");
  });

  it("announces a file sent for approval, and its new version", async () => {
    const { owner, client, phone } = await conversationWithClientPhone();
    const form = (name: string, requiresFeedback?: boolean) => {
      const body = new FormData();
      if (requiresFeedback) body.append("requiresFeedback", "true");
      body.append(
        "file",
        new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }),
        name,
      );
      return body;
    };
    const sent = await owner.agent.request("POST", `/api/clients/${client.id}/upload`, {
      body: form("logo.pdf", true),
    });
    expect(sent.status).toBe(201);
    await pushService.waitForPushes(phone.endpoint, 1);
    const declined = await client.agent.patch(`/api/messages/${sent.body.id}/feedback`, {
      feedbackStatus: "needs_work",
      feedbackComment: "Bigger, please",
    });
    expect(declined.status).toBe(200);
    const version = await owner.agent.request("POST", `/api/messages/${sent.body.id}/versions`, {
      body: form("logo-v2.pdf"),
    });
    expect(version.status).toBe(201);
    const pushes = await pushService.waitForPushes(phone.endpoint, 2);
    expect(pushes.map((push) => push.payload.body)).toEqual([
      "Sent logo.pdf for your approval",
      "New version of logo-v2.pdf for your approval",
    ]);
  });

  it("is not sent while the recipient has the app open (a socket), and is again once it closes", async () => {
    const { owner, client, phone } = await conversationWithClientPhone();
    const socket = await TestSocket.open(server.url, { cookie: client.agent.cookieHeader });
    expect((await send(owner.agent, client.id, "You see this one in the app")).status).toBe(201);
    await socket.waitFor((event) => event.type === "new_message");
    await server.services.events.idle();
    await server.services.afterAnswer.idle();
    expect(pushService.pushesTo(phone.endpoint)).toEqual([]);

    socket.close();
    // The socket server removes its presence row once the last socket closed.
    await expect
      .poll(() => server.db("socket_presence").where("userId", client.userId))
      .toEqual([]);
    expect((await send(owner.agent, client.id, "And this one on the phone")).status).toBe(201);
    const pushes = await pushService.waitForPushes(phone.endpoint);
    expect(pushes.map((push) => push.payload.body)).toEqual(["And this one on the phone"]);
  });

  it("counts a socket open on another instance, until that instance's row goes stale", async () => {
    const { owner, client, phone } = await conversationWithClientPhone();
    // A second instance on the same database; the client's socket is there.
    const other = await startTestServer({
      db: server.db,
      env: { PUSH_TEST_ORIGINS: pushService.origin },
    });
    try {
      const socket = await TestSocket.open(other.url, { cookie: client.agent.cookieHeader });
      expect((await send(owner.agent, client.id, "Open elsewhere")).status).toBe(201);
      await server.services.events.idle();
      await server.services.afterAnswer.idle();
      expect(pushService.pushesTo(phone.endpoint)).toEqual([]);
      // That instance stopped refreshing its row a minute ago (it crashed): the user is away.
      const held = server
        .db("socket_presence")
        .where({ userId: client.userId })
        .select("instanceId");
      await server
        .db("socket_instances")
        .whereIn("id", held)
        .update({ seenAt: new Date(server.clock.now().getTime() - 61_000) });
      expect((await send(owner.agent, client.id, "Now away")).status).toBe(201);
      const pushes = await pushService.waitForPushes(phone.endpoint);
      expect(pushes.map((push) => push.payload.body)).toEqual(["Now away"]);
      socket.close();
    } finally {
      await other.close();
    }
  });

  it("removes a subscription the push service answers 410 or 404, and keeps one it answers 500", async () => {
    for (const status of [410, 404]) {
      const { owner, client, phone } = await conversationWithClientPhone();
      pushService.answer(phone.endpoint, status);
      expect((await send(owner.agent, client.id, "Anyone there?")).status).toBe(201);
      await server.services.events.idle();
      await server.services.afterAnswer.idle();
      expect(await PushSubscription.query().where("endpoint", phone.endpoint)).toEqual([]);
    }
    const { owner, client, phone } = await conversationWithClientPhone();
    pushService.answer(phone.endpoint, 500);
    expect((await send(owner.agent, client.id, "Try later")).status).toBe(201);
    await server.services.events.idle();
    await server.services.afterAnswer.idle();
    expect(await PushSubscription.query().where("endpoint", phone.endpoint)).toHaveLength(1);
  });

  it("is not sent to a browser whose session ended", async () => {
    const { owner, client, phone } = await conversationWithClientPhone();
    expect((await client.agent.post("/api/logout")).status).toBe(200);
    expect((await send(owner.agent, client.id, "Signed out, not shown")).status).toBe(201);
    await server.services.events.idle();
    await server.services.afterAnswer.idle();
    expect(pushService.pushesTo(phone.endpoint)).toEqual([]);
  });
});
