import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../../tests/support/clock";
import { addJoinedContact } from "../../../tests/support/contacts";
import { testDatabase } from "../../../tests/support/database";
import { signUpOwner, startConversation } from "../../../tests/support/factories";
import { sendFileForApproval } from "../../../tests/support/file-for-approval";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { linkIn } from "../../../tests/support/smtp";
import { minimalPdf } from "../../../tests/support/pdf";
import { pdfOfSize, storedKeys, uploadFile } from "../../../tests/support/storage-files";
import { addStaff } from "../../../tests/support/team";
import { TestSocket } from "../../../tests/support/ws-client";
import { MESSAGE_CHANGE_MESSAGES } from "../../../shared/message-changes";
import type { RealtimeEvent } from "../../../shared/realtime";

let server: TestServer;
let clock: TestClock;
beforeAll(async () => {
  // The unanswered-messages sweep takes every due row of its database: this file gets its own.
  server = await startTestServer({ db: await testDatabase({ isolated: true }) });
  clock = server.clock as TestClock;
});
afterAll(async () => {
  await server?.close();
  await server?.db.destroy();
});
// Each test starts at the real time again: messages are stamped by the database's clock.
afterEach(() => clock.advance(Date.now() - clock.now().getTime()));

const conversation = () =>
  startConversation(server, { ownerName: "Olivia Owner", clientName: "Carla Client", tier: "pro" });

async function send(agent: TestAgent, clientId: string, content: string, internal = false) {
  const sent = await agent.post(`/api/clients/${clientId}/messages`, {
    content,
    ...(internal ? { visibility: "internal" } : {}),
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  return sent.body as { id: string };
}

const edit = (agent: TestAgent, id: string, content: unknown) =>
  agent.patch(`/api/messages/${id}`, { content });
const remove = (agent: TestAgent, id: string) => agent.request("DELETE", `/api/messages/${id}`);

/** The message as `agent` finds it in the conversation. */
async function seen(agent: TestAgent, clientId: string, id: string) {
  const list = await agent.get(`/api/clients/${clientId}/messages`);
  expect(list.status).toBe(200);
  return (list.body as { id: string }[]).find((message) => message.id === id) as
    | Record<string, unknown>
    | undefined;
}

const searchTexts = async (agent: TestAgent, q: string) => {
  const response = await agent.get(`/api/search?${new URLSearchParams({ q })}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.results as { messageId: string }[]).map((result) => result.messageId);
};

/** Publishes a marker into the conversation: once a socket has it, it has all sent before. */
async function marker(clientId: string) {
  const event = { type: "new_message", clientId, messageId: randomUUID() } as const;
  await server.services.realtime.publish(event);
  return event;
}

async function eventsBeforeMarker(socket: TestSocket, clientId: string) {
  const mark = await marker(clientId);
  await socket.waitFor((event) => event.messageId === mark.messageId);
  return socket.events.filter((event) => event.messageId !== mark.messageId);
}

describe("PATCH /api/messages/:id", () => {
  it("lets the author change the text; both sides see it edited, the staff the previous text", async () => {
    const { owner, client } = await conversation();
    const sent = await send(owner.agent, client.id, "See you on Tuesdya");
    clock.advanceMinutes(3);
    const edited = await edit(owner.agent, sent.id, "  See you on Tuesday \n");
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({
      id: sent.id,
      content: "See you on Tuesday",
      editedAt: expect.any(String),
      deleted: false,
    });
    expect(Date.parse(edited.body.editedAt)).toBeGreaterThan(Date.now());
    expect(await seen(client.agent, client.id, sent.id)).toMatchObject({
      content: "See you on Tuesday",
      editedAt: edited.body.editedAt,
    });
    // The previous text: to the staff, never to the client.
    const edits = await owner.agent.get(`/api/messages/${sent.id}/edits`);
    expect(edits.status).toBe(200);
    expect(edits.body).toEqual({
      edits: [
        {
          content: "See you on Tuesdya",
          editedAt: edited.body.editedAt,
          editorName: "Olivia Owner",
        },
      ],
    });
    expect((await client.agent.get(`/api/messages/${sent.id}/edits`)).status).toBe(404);
    // Search finds the new text, not the old.
    expect(await searchTexts(owner.agent, "Tuesday")).toEqual([sent.id]);
    expect(await searchTexts(owner.agent, "Tuesdya")).toEqual([]);
  });

  it("is refused after 15 minutes, for blank text, and for a file without text", async () => {
    const { owner, client } = await conversation();
    const sent = await send(owner.agent, client.id, "Original");
    expect((await edit(owner.agent, sent.id, "   ")).body).toEqual({
      message: "Message cannot be empty",
    });
    expect((await edit(owner.agent, sent.id, "x")).status).toBe(200);
    const file = await uploadFile(owner.agent, client.id, pdfOfSize(), "brief.pdf");
    const noText = await edit(owner.agent, file.body.id, "A caption");
    expect([noText.status, noText.body]).toEqual([
      400,
      { message: MESSAGE_CHANGE_MESSAGES.noText },
    ]);

    clock.advanceMinutes(15);
    clock.advance(1_000);
    const late = await edit(owner.agent, sent.id, "Too late");
    expect([late.status, late.body]).toEqual([
      409,
      { message: "Messages can be edited for 15 minutes after sending" },
    ]);
    const lateDelete = await remove(owner.agent, sent.id);
    expect([lateDelete.status, lateDelete.body]).toEqual([
      409,
      { message: "Messages can be deleted for 15 minutes after sending" },
    ]);
    expect(await seen(owner.agent, client.id, sent.id)).toMatchObject({
      content: "x",
      deleted: false,
    });
  });

  it("answers the author only: 403 to the other side, a colleague or another contact; 404 beyond", async () => {
    const { owner, client } = await conversation();
    const admin = await addStaff(server, owner, "admin");
    const dora = await addJoinedContact(server, owner, client.id);
    const stranger = await signUpOwner(server, "Other Owner");
    const fromOwner = await send(owner.agent, client.id, "From Olivia");
    const fromCarla = await send(client.agent, client.id, "From Carla");
    const note = await send(owner.agent, client.id, "Staff only", true);

    const statuses = async (agent: TestAgent) =>
      Promise.all(
        [fromOwner, fromCarla, note].map(async (message) => [
          (await edit(agent, message.id, "Changed")).status,
          (await remove(agent, message.id)).status,
        ]),
      );
    expect(await statuses(admin.agent)).toEqual([
      [403, 403],
      [403, 403],
      [403, 403],
    ]);
    expect(await statuses(dora.agent)).toEqual([
      [403, 403],
      [403, 403],
      [404, 404],
    ]);
    expect(await statuses(client.agent)).toEqual([
      [403, 403],
      [200, 200],
      [404, 404],
    ]);
    expect(await statuses(stranger.agent)).toEqual([
      [404, 404],
      [404, 404],
      [404, 404],
    ]);
    expect(await statuses(server.agent())).toEqual([
      [401, 401],
      [401, 401],
      [401, 401],
    ]);
    expect((await edit(owner.agent, randomUUID(), "x")).status).toBe(404);
    expect((await remove(owner.agent, "not-an-id")).status).toBe(404);
    expect((await remove(owner.agent, note.id)).status).toBe(200);
    expect(await seen(owner.agent, client.id, fromOwner.id)).toMatchObject({
      content: "From Olivia",
      editedAt: null,
    });
  });
});

describe("DELETE /api/messages/:id", () => {
  it("leaves a placeholder both sides see, found by no search, counted as nothing", async () => {
    const { owner, client } = await conversation();
    await send(owner.agent, client.id, "Hello Carla");
    const question = await send(client.agent, client.id, "Quick question about pineapple");
    const listed = async () =>
      (await owner.agent.get("/api/clients")).body.find((c: { id: string }) => c.id === client.id);
    expect(await listed()).toMatchObject({ unreadCount: 1, awaitingReply: true });

    const deleted = await remove(client.agent, question.id);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({
      id: question.id,
      content: null,
      fileUrl: null,
      fileName: null,
      deleted: true,
    });
    for (const agent of [owner.agent, client.agent])
      expect(await seen(agent, client.id, question.id)).toMatchObject({
        content: null,
        deleted: true,
      });
    expect(await listed()).toMatchObject({ unreadCount: 0, awaitingReply: false });
    expect(await searchTexts(owner.agent, "pineapple")).toEqual([]);
    expect(await searchTexts(client.agent, "pineapple")).toEqual([]);
    // Gone is gone: neither changed nor deleted again.
    for (const answer of [
      await remove(client.agent, question.id),
      await edit(client.agent, question.id, "x"),
    ])
      expect([answer.status, answer.body]).toEqual([
        409,
        { message: MESSAGE_CHANGE_MESSAGES.deleted },
      ]);
  });

  it("deletes a shared file with its stored bytes, and leaves the attachments", async () => {
    const { owner, client } = await conversation();
    const file = await uploadFile(owner.agent, client.id, pdfOfSize(), "contract.pdf");
    expect(file.status).toBe(201);
    const storedName = String(file.body.fileUrl).replace("/api/download/", "");
    expect(storedKeys(server.dataDir)).toContain(storedName);

    const deleted = await remove(owner.agent, file.body.id);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      fileUrl: null,
      fileName: null,
      fileSize: null,
      deleted: true,
    });
    expect(storedKeys(server.dataDir)).not.toContain(storedName);
    expect((await owner.agent.get(file.body.fileUrl)).status).toBe(404);
    const attachments = await client.agent.get(`/api/clients/${client.id}/attachments`);
    expect(attachments.body).toEqual([]);
    expect(await searchTexts(owner.agent, "contract")).toEqual([]);
  });

  it("deletes a file for approval only while undecided; its email's links then fail gracefully", async () => {
    const undecided = await sendFileForApproval(server, "poster-draft.pdf");
    const approve = linkIn(undecided.mail, "Approve").split("/").pop();
    const deleted = await remove(undecided.owner.agent, undecided.fileId);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toMatchObject({
      requiresFeedback: false,
      feedbackStatus: null,
      deleted: true,
    });
    const link = await server.agent().post(`/api/feedback-links/${approve}`, {});
    expect([link.status, link.body]).toEqual([404, { message: "This link is not valid." }]);
    const clients = await undecided.owner.agent.get("/api/clients");
    expect(clients.body[0]).toMatchObject({ pendingApprovals: 0 });

    const decided = await sendFileForApproval(server, "logo-final.pdf");
    const decision = await decided.client.agent.patch(`/api/messages/${decided.fileId}/feedback`, {
      feedbackStatus: "approved",
    });
    expect(decision.status, JSON.stringify(decision.body)).toBe(200);
    const refused = await remove(decided.owner.agent, decided.fileId);
    expect([refused.status, refused.body]).toEqual([
      409,
      { message: MESSAGE_CHANGE_MESSAGES.decided },
    ]);
  });

  it("takes an undecided new version out of its thread: the one before is the latest again", async () => {
    const sent = await sendFileForApproval(server, "flyer-v1.pdf");
    const needsWork = await sent.client.agent.patch(`/api/messages/${sent.fileId}/feedback`, {
      feedbackStatus: "needs_work",
      feedbackComment: "Bigger logo",
    });
    expect(needsWork.status, JSON.stringify(needsWork.body)).toBe(200);
    const newVersion = async (name: string) => {
      const body = new FormData();
      body.append(
        "file",
        new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }),
        name,
      );
      const answer = await sent.owner.agent.request(
        "POST",
        `/api/messages/${sent.fileId}/versions`,
        {
          body,
        },
      );
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      return answer.body as { id: string; versionNumber: number };
    };
    const second = await newVersion("flyer-v2.pdf");
    expect(second.versionNumber).toBe(2);
    // The first version was decided: it stays.
    expect((await remove(sent.owner.agent, sent.fileId)).status).toBe(409);
    expect((await remove(sent.owner.agent, second.id)).status).toBe(200);

    const versions = await sent.owner.agent.get(`/api/messages/${sent.fileId}/versions`);
    expect(versions.body).toEqual([
      expect.objectContaining({ id: sent.fileId, versionNumber: 1, isLatestVersion: true }),
    ]);
    const again = await newVersion("flyer-v2b.pdf");
    expect(again.versionNumber).toBe(2);
  });
});

describe("what follows an edit or a deletion", () => {
  it("tells both sides live, and only the staff of an internal note's", async () => {
    const { owner, client } = await conversation();
    const ownerSocket = await TestSocket.open(server.url, { cookie: owner.agent.cookieHeader });
    const clientSocket = await TestSocket.open(server.url, { cookie: client.agent.cookieHeader });
    try {
      const text = await send(client.agent, client.id, "Typo hree");
      const note = await send(owner.agent, client.id, "Careful with this one", true);
      await edit(client.agent, text.id, "Typo here");
      await edit(owner.agent, note.id, "Careful with this client");
      await remove(owner.agent, note.id);
      await remove(client.agent, text.id);
      const changes = (events: RealtimeEvent[]) =>
        events.filter(
          (event) => event.type === "message_updated" || event.type === "message_deleted",
        );
      const updated = { type: "message_updated", clientId: client.id };
      const deleted = { type: "message_deleted", clientId: client.id };
      expect(changes(await eventsBeforeMarker(ownerSocket, client.id))).toEqual([
        { ...updated, messageId: text.id },
        { ...updated, messageId: note.id },
        { ...deleted, messageId: note.id },
        { ...deleted, messageId: text.id },
      ]);
      const toClient = await eventsBeforeMarker(clientSocket, client.id);
      expect(changes(toClient)).toEqual([
        { ...updated, messageId: text.id },
        { ...deleted, messageId: text.id },
      ]);
      expect(JSON.stringify(toClient)).not.toContain(note.id);
    } finally {
      ownerSocket.close();
      clientSocket.close();
    }
  });

  it("mails the text as it is when the email goes, and nothing for a deleted message", async () => {
    const { owner, client } = await conversation();
    const kept = await send(client.agent, client.id, "Can we move the call to Fridya?");
    await edit(client.agent, kept.id, "Can we move the call to Friday?");
    clock.advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    const mail = await server.smtp.waitFor(owner.email, (m) => m.text.includes("Friday?"));
    expect(mail.text).not.toContain("Fridya");

    // The owner answers, then deletes it before the client's email would go.
    const answer = await send(owner.agent, client.id, "Sure, Friday works");
    const before = server.smtp.mailsTo(client.email).length;
    expect((await remove(owner.agent, answer.id)).status).toBe(200);
    clock.advanceMinutes(10);
    await server.jobs.runOnce("unanswered-messages");
    // The sweep ran and settled the client's row: a later message is mailed, this one never.
    await send(owner.agent, client.id, "Booked for Friday at 10");
    clock.advanceMinutes(5);
    await server.jobs.runOnce("unanswered-messages");
    const next = await server.smtp.waitFor(client.email, (m) =>
      m.text.includes("Booked for Friday"),
    );
    expect(next.text).not.toContain("Friday works");
    expect(server.smtp.mailsTo(client.email).length).toBe(before + 1);
  });
});
