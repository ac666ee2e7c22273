import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import type { HubMessage } from "../../realtime/hub";
import { Message, StoredFile } from "../../models";

const ACTORS = ["anon", "B", "A2", "B1", "A", "A1"] as const;
type Actor = (typeof ACTORS)[number];

let server: TestServer;
let A: SignedInOwner;
let B: SignedInOwner;
let A1: JoinedClient;
let A2: JoinedClient;
let B1: JoinedClient;
let agents: Record<Actor, TestAgent>;

beforeAll(async () => {
  server = await startTestServer();
  A = await signUpOwner(server, "Alice Owner");
  B = await signUpOwner(server, "Bob Owner");
  await setTier(A.id, "pro");
  A1 = await addJoinedClient(server, A, { name: "Client One Of Alice" });
  A2 = await addJoinedClient(server, A, { name: "Other Client Of Alice" });
  B1 = await addJoinedClient(server, B, { name: "Client Of Bob" });
  agents = {
    anon: server.agent(),
    A: A.agent,
    B: B.agent,
    A1: A1.agent,
    A2: A2.agent,
    B1: B1.agent,
  };
});
afterAll(() => server?.close());

const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
);
const NEEDS_WORK_COMMENT = "Please provide a comment when selecting 'Needs Work'";

function pdfForm(filename: string, requiresFeedback?: boolean): FormData {
  const body = new FormData();
  if (requiresFeedback !== undefined) body.append("requiresFeedback", String(requiresFeedback));
  body.append("file", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), filename);
  return body;
}

/** A file of A's in A1's conversation; requiring feedback unless told otherwise. */
async function ownerFile(name = "design.pdf", requiresFeedback = true, clientId = A1.id) {
  const response = await A.agent.request("POST", `/api/clients/${clientId}/upload`, {
    body: pdfForm(name, requiresFeedback),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; fileUrl: string };
}

const decide = (agent: TestAgent, messageId: string, body: unknown) =>
  agent.patch(`/api/messages/${messageId}/feedback`, body);
const newVersion = (agent: TestAgent, messageId: string, name = "design-v2.pdf") =>
  agent.request("POST", `/api/messages/${messageId}/versions`, { body: pdfForm(name) });
const versions = (agent: TestAgent, messageId: string) =>
  agent.get(`/api/messages/${messageId}/versions`);

const row = (id: string) => Message.query().findById(id);

function storedFiles(): string[] {
  const root = path.join(server.dataDir, "files");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** This file's conversations (the PostgreSQL test database is shared between test files). */
const ours = () => [A1.id, A2.id, B1.id];

async function snapshot() {
  return {
    files: storedFiles(),
    rows: (await StoredFile.query().select("id").whereIn("clientId", ours()).orderBy("id")).map(
      (file) => file.id,
    ),
    messages: await Message.query()
      .select("id", "feedbackStatus", "feedbackComment", "feedbackAt", "versionOf", "versionNumber")
      .whereIn("clientId", ours())
      .orderBy("id"),
  };
}

describe("PATCH /api/messages/:messageId/feedback", () => {
  it("answers the authorization matrix: only the conversation's client decides", async () => {
    const file = await ownerFile();
    const expected: Record<Actor, number> = {
      anon: 401,
      B: 404,
      A2: 404,
      B1: 404,
      A: 403,
      A1: 200,
    };
    for (const actor of ACTORS) {
      const before = await snapshot();
      const response = await decide(agents[actor], file.id, { feedbackStatus: "approved" });
      expect(response.status, actor).toBe(expected[actor]);
      if (response.status !== 200) expect(await snapshot()).toEqual(before);
    }
    expect(
      (await decide(A.agent, (await ownerFile()).id, { feedbackStatus: "approved" })).body.message,
    ).toBe("Only the client can give feedback");
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope"]) {
      expect((await decide(A1.agent, id, { feedbackStatus: "approved" })).status).toBe(404);
    }
  });

  it("approves, then refuses a second decision with 409 and leaves it unchanged", async () => {
    const file = await ownerFile();
    const events: HubMessage[] = [];
    const unsubscribe = server.services.realtime.subscribe((message) => events.push(message));
    const approved = await decide(A1.agent, file.id, {
      feedbackStatus: "approved",
      feedbackComment: "  Lovely  ",
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      id: file.id,
      feedbackStatus: "approved",
      feedbackComment: "Lovely",
      feedbackByName: "Client One Of Alice",
      requiresFeedback: true,
    });
    expect(approved.body.feedbackAt).toEqual(expect.any(String));
    // On PostgreSQL the event comes back through NOTIFY, possibly after the answer.
    await expect
      .poll(() => events)
      .toContainEqual({
        kind: "event",
        event: { type: "feedback_updated", clientId: A1.id, messageId: file.id },
      });
    unsubscribe();
    expect(await row(file.id)).toMatchObject({ feedbackBy: A1.userId });

    const before = await snapshot();
    for (const body of [
      { feedbackStatus: "needs_work", feedbackComment: "Changed my mind" },
      { feedbackStatus: "approved" },
    ]) {
      const again = await decide(A1.agent, file.id, body);
      expect(again.status).toBe(409);
      expect(again.body.message).toBe("Feedback on this file was already given");
    }
    expect(await snapshot()).toEqual(before);

    // The owner sees the decision.
    const attachments = await A.agent.get(`/api/clients/${A1.id}/attachments`);
    expect(
      attachments.body.find((message: { id: string }) => message.id === file.id),
    ).toMatchObject({
      feedbackStatus: "approved",
      feedbackComment: "Lovely",
    });
  });

  it("needs a non-blank comment for Needs Work, and validates the body", async () => {
    const file = await ownerFile();
    const cases: [unknown, string | RegExp][] = [
      [{ feedbackStatus: "needs_work" }, NEEDS_WORK_COMMENT],
      [{ feedbackStatus: "needs_work", feedbackComment: "   \n\t" }, NEEDS_WORK_COMMENT],
      [{ feedbackStatus: "needs_work", feedbackComment: null }, NEEDS_WORK_COMMENT],
      [{ feedbackStatus: "pending" }, "feedbackStatus must be approved or needs_work"],
      [{}, "feedbackStatus must be approved or needs_work"],
      [{ feedbackStatus: "approved", feedbackAt: "2020-01-01" }, "Unknown field: feedbackAt"],
      [{ feedbackStatus: "needs_work", feedbackComment: "x".repeat(5001) }, /limited to 5,000/],
    ];
    const before = await snapshot();
    for (const [body, message] of cases) {
      const response = await decide(A1.agent, file.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      if (typeof message === "string") expect(response.body.message).toBe(message);
      else expect(response.body.message).toMatch(message);
    }
    expect(await snapshot()).toEqual(before);
    const sentBack = await decide(A1.agent, file.id, {
      feedbackStatus: "needs_work",
      feedbackComment: " Bigger logo ",
    });
    expect(sentBack.status).toBe(200);
    expect(sentBack.body).toMatchObject({
      feedbackStatus: "needs_work",
      feedbackComment: "Bigger logo",
    });
  });

  it("refuses messages that do not ask for feedback", async () => {
    const plain = await ownerFile("plain.pdf", false);
    const text = await A.agent.post(`/api/clients/${A1.id}/messages`, { content: "hello" });
    const clientFile = await A1.agent.request("POST", `/api/clients/${A1.id}/upload`, {
      body: pdfForm("mine.pdf"),
    });
    for (const id of [plain.id, text.body.id, clientFile.body.id]) {
      const response = await decide(A1.agent, id, { feedbackStatus: "approved" });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe("This message does not ask for feedback");
      expect(await row(id)).toMatchObject({ feedbackStatus: null });
    }
  });

  it("takes exactly one of two decisions at once", async () => {
    for (let round = 0; round < 3; round += 1) {
      const file = await ownerFile();
      const answers = await Promise.all([
        decide(A1.agent, file.id, { feedbackStatus: "approved" }),
        decide(A1.agent, file.id, { feedbackStatus: "needs_work", feedbackComment: "no" }),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const winner = answers.find((answer) => answer.status === 200)!;
      expect((await row(file.id))?.feedbackStatus).toBe(winner.body.feedbackStatus);
    }
  });
});

describe("versions", () => {
  it("answers a Needs Work file with a new version and keeps the history", async () => {
    const v1 = await ownerFile("logo.pdf");
    // Not while pending.
    const early = await newVersion(A.agent, v1.id);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe("A new version can only answer a file marked Needs Work");

    await decide(A1.agent, v1.id, {
      feedbackStatus: "needs_work",
      feedbackComment: "Make it blue",
    });
    const events: HubMessage[] = [];
    const unsubscribe = server.services.realtime.subscribe((message) => events.push(message));
    const v2 = await newVersion(A.agent, v1.id, "logo-blue.pdf");
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({
      fileName: "logo-blue.pdf",
      senderRole: "owner",
      requiresFeedback: true,
      feedbackStatus: "pending",
      versionOf: v1.id,
      versionNumber: 2,
      isLatestVersion: true,
    });
    // On PostgreSQL the event comes back through NOTIFY, possibly after the answer.
    await expect
      .poll(() => events)
      .toContainEqual({
        kind: "event",
        event: { type: "new_message", clientId: A1.id, messageId: v2.body.id },
      });
    unsubscribe();
    // In the conversation, after v1, which is no longer the latest.
    const messages = (await A1.agent.get(`/api/clients/${A1.id}/messages`)).body as {
      id: string;
      isLatestVersion: boolean;
    }[];
    expect(messages.at(-1)?.id).toBe(v2.body.id);
    expect(messages.find((message) => message.id === v1.id)?.isLatestVersion).toBe(false);
    // One pending version at a time, asked through any version of the thread.
    for (const id of [v1.id, v2.body.id]) expect((await newVersion(A.agent, id)).status).toBe(409);
    // A decided version never changes again.
    expect((await decide(A1.agent, v1.id, { feedbackStatus: "approved" })).status).toBe(409);

    await decide(A1.agent, v2.body.id, { feedbackStatus: "needs_work", feedbackComment: "Darker" });
    const v3 = await newVersion(A.agent, v2.body.id, "logo-navy.pdf");
    expect(v3.body).toMatchObject({ versionOf: v1.id, versionNumber: 3 });
    expect((await decide(A1.agent, v3.body.id, { feedbackStatus: "approved" })).status).toBe(200);
    expect((await newVersion(A.agent, v3.body.id)).status).toBe(409);

    for (const agent of [A.agent, A1.agent]) {
      for (const id of [v1.id, v3.body.id]) {
        const history = await versions(agent, id);
        expect(history.status).toBe(200);
        expect(
          history.body.map(
            (version: {
              versionNumber: number;
              fileName: string;
              feedbackStatus: string;
              feedbackComment: string | null;
              feedbackByName: string | null;
            }) => [
              version.versionNumber,
              version.fileName,
              version.feedbackStatus,
              version.feedbackComment,
              version.feedbackByName,
            ],
          ),
        ).toEqual([
          [1, "logo.pdf", "needs_work", "Make it blue", "Client One Of Alice"],
          [2, "logo-blue.pdf", "needs_work", "Darker", "Client One Of Alice"],
          [3, "logo-navy.pdf", "approved", null, "Client One Of Alice"],
        ]);
        expect(
          history.body.every((version: { feedbackAt: string | null }) => version.feedbackAt),
        ).toBe(true);
      }
    }
  });

  it("answers the authorization matrix for new versions and history", async () => {
    const file = await ownerFile("matrix.pdf");
    await decide(A1.agent, file.id, { feedbackStatus: "needs_work", feedbackComment: "again" });
    const upload: Record<Actor, number> = { anon: 401, B: 404, A2: 404, B1: 404, A: 201, A1: 403 };
    const read: Record<Actor, number> = { anon: 401, B: 404, A2: 404, B1: 404, A: 200, A1: 200 };
    for (const actor of ["anon", "B", "A2", "B1", "A1", "A"] as const) {
      const before = await snapshot();
      const response = await newVersion(agents[actor], file.id);
      expect(response.status, actor).toBe(upload[actor]);
      if (response.status !== 201) expect(await snapshot()).toEqual(before);
    }
    for (const actor of ACTORS) {
      expect((await versions(agents[actor], file.id)).status, actor).toBe(read[actor]);
    }
  });

  it("refuses versions of messages that are not files for approval, and bad files", async () => {
    const plain = await ownerFile("plain.pdf", false);
    const text = await A.agent.post(`/api/clients/${A1.id}/messages`, { content: "hi" });
    for (const id of [plain.id, text.body.id]) {
      const before = await snapshot();
      const response = await newVersion(A.agent, id);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe("Only a file sent for approval can get a new version");
      expect(await snapshot()).toEqual(before);
    }
    const file = await ownerFile();
    await decide(A1.agent, file.id, { feedbackStatus: "needs_work", feedbackComment: "x" });
    const before = await snapshot();
    const html = new FormData();
    html.append("file", new Blob(["<html></html>"]), "v2.pdf");
    const refused = await A.agent.request("POST", `/api/messages/${file.id}/versions`, {
      body: html,
    });
    expect(refused.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it("takes one of two new versions at once", async () => {
    const file = await ownerFile();
    await decide(A1.agent, file.id, { feedbackStatus: "needs_work", feedbackComment: "x" });
    const before = storedFiles().length;
    const answers = await Promise.all([
      newVersion(A.agent, file.id, "a.pdf"),
      newVersion(A.agent, file.id, "b.pdf"),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    // The loser's bytes were removed.
    expect(storedFiles().length).toBe(before + 1);
  });
});

describe("pendingApprovals", () => {
  it("counts the owner's files that wait for a decision, on both sides", async () => {
    const owner = await signUpOwner(server, "Paula Pending");
    const client = await addJoinedClient(server, owner, { name: "Pending Client" });
    const count = async () => ({
      list: (await owner.agent.get("/api/clients")).body[0].pendingApprovals,
      owner: (await owner.agent.get(`/api/clients/${client.id}`)).body.pendingApprovals,
      client: (await client.agent.get(`/api/clients/${client.id}`)).body.pendingApprovals,
    });
    expect(await count()).toEqual({ list: 0, owner: 0, client: 0 });
    const upload = (requiresFeedback: boolean) =>
      owner.agent.request("POST", `/api/clients/${client.id}/upload`, {
        body: pdfForm("p.pdf", requiresFeedback),
      });
    const first = (await upload(true)).body;
    await upload(true);
    await upload(false);
    await client.agent.request("POST", `/api/clients/${client.id}/upload`, {
      body: pdfForm("c.pdf"),
    });
    expect(await count()).toEqual({ list: 2, owner: 2, client: 2 });
    await decide(client.agent, first.id, { feedbackStatus: "needs_work", feedbackComment: "fix" });
    expect(await count()).toEqual({ list: 1, owner: 1, client: 1 });
    await newVersion(owner.agent, first.id);
    expect(await count()).toEqual({ list: 2, owner: 2, client: 2 });
  });
});
