import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedContact, type JoinedContact } from "../../../tests/support/contacts";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { minimalPdf } from "../../../tests/support/pdf";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { addStaff } from "../../../tests/support/team";
import { TestSocket } from "../../../tests/support/ws-client";
import { Annotation, User } from "../../models";

// Issue 27: review marks on the versions of files sent for approval. Both sides of a
// conversation read, make, answer and resolve them; nobody else learns they exist.

let server: TestServer;
let A: SignedInOwner;
let admin: SignedInOwner;
let assigned: SignedInOwner;
let unassigned: SignedInOwner;
let B: SignedInOwner;
let A1: JoinedClient;
let dora: JoinedContact;
let A2: JoinedClient;
let B1: JoinedClient;

beforeAll(async () => {
  server = await startTestServer();
  A = await signUpOwner(server, "Alice Owner");
  B = await signUpOwner(server, "Bob Owner");
  await setTier(A.id, "agency");
  await setTier(B.id, "pro");
  admin = await addStaff(server, A, "admin", "Adam Admin");
  assigned = await addStaff(server, A, "member", "Sam Staff");
  unassigned = await addStaff(server, A, "member", "Una Unassigned");
  A1 = await addJoinedClient(server, A, { name: "Carla Client" });
  A2 = await addJoinedClient(server, A, { name: "Other Client Of Alice" });
  B1 = await addJoinedClient(server, B, { name: "Client Of Bob" });
  dora = await addJoinedContact(server, A, A1.id, { name: "Dora Director" });
  const assignment = await A.agent.put(`/api/clients/${A1.id}/assignees`, {
    userIds: [assigned.id],
  });
  expect(assignment.status, JSON.stringify(assignment.body)).toBe(200);
});
afterAll(() => server?.close());

function pdfForm(name: string, requiresFeedback?: boolean): FormData {
  const body = new FormData();
  if (requiresFeedback !== undefined) body.append("requiresFeedback", String(requiresFeedback));
  body.append("file", new Blob([new Uint8Array(minimalPdf())], { type: "application/pdf" }), name);
  return body;
}

async function fileForApproval(clientId = A1.id, agent = A.agent, name = "poster.pdf") {
  const response = await agent.request("POST", `/api/clients/${clientId}/upload`, {
    body: pdfForm(name, true),
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string };
}

const marksPath = (messageId: string, version = 1) =>
  `/api/messages/${messageId}/versions/${version}/annotations`;
const POINT = { page: 1, x: 0.5, y: 0.25, width: 0, height: 0, comment: "Logo too small" };
const BOX = { page: 3, x: 0.1, y: 0.2, width: 0.3, height: 0.4, comment: "Crop this" };

const mark = async (agent: TestAgent, messageId: string, body: object = POINT, version = 1) => {
  const response = await agent.post(marksPath(messageId, version), body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string };
};

describe("review marks", () => {
  it("a contact marks a point and a rectangle; both sides read them with author and thread", async () => {
    const file = await fileForApproval();
    const point = await A1.agent.post(marksPath(file.id), POINT);
    expect(point.status).toBe(201);
    expect(point.body).toMatchObject({
      ...POINT,
      messageId: file.id,
      version: 1,
      author: { name: "Carla Client", side: "client" },
      replies: [],
      resolved: false,
      resolvedAt: null,
      visibility: "client",
      carriedFromId: null,
    });
    const box = await mark(dora.agent, file.id, BOX);

    const reply = await assigned.agent.post(`/api/annotations/${point.body.id}/replies`, {
      content: "Making it twice as big",
    });
    expect(reply.status).toBe(201);
    expect(reply.body.replies).toEqual([
      expect.objectContaining({
        content: "Making it twice as big",
        author: expect.objectContaining({ name: "Sam Staff", side: "owner" }),
      }),
    ]);

    const resolved = await dora.agent.patch(`/api/annotations/${box.id}`, { resolved: true });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ resolved: true, resolvedByName: "Dora Director" });

    for (const agent of [A.agent, A1.agent, dora.agent, assigned.agent, admin.agent]) {
      const list = await agent.get(marksPath(file.id));
      expect(list.status).toBe(200);
      expect(list.body.map((m: { comment: string }) => m.comment)).toEqual([
        "Logo too small",
        "Crop this",
      ]);
      expect(list.body[0].replies).toHaveLength(1);
      expect(list.body[1]).toMatchObject({ resolved: true, author: { name: "Dora Director" } });
    }

    const reopened = await A.agent.patch(`/api/annotations/${box.id}`, { resolved: false });
    expect(reopened.body).toMatchObject({
      resolved: false,
      resolvedAt: null,
      resolvedByName: null,
    });
  });

  it("refuses marks outside the page, blank comments and bad pages with 400, changing nothing", async () => {
    const file = await fileForApproval();
    const refused: [object, string][] = [
      [{ ...POINT, x: 1.2 }, "x must be a number from 0 to 1"],
      [{ ...BOX, x: 0.8 }, "The mark must lie within the page"],
      [{ ...POINT, comment: "   " }, "Comment cannot be empty"],
      [{ ...POINT, page: 0 }, "page must be a whole number from 1"],
      [{ ...POINT, page: 1.5 }, "page must be a whole number from 1"],
      [{ ...POINT, color: "red" }, ""],
    ];
    for (const [body, message] of refused) {
      const response = await A1.agent.post(marksPath(file.id), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      if (message) expect(response.body.message).toBe(message);
    }
    expect(await Annotation.query().where("messageId", file.id).resultSize()).toBe(0);
    const blankReply = await A1.agent.post(
      `/api/annotations/${(await mark(A1.agent, file.id)).id}/replies`,
      { content: " " },
    );
    expect(blankReply).toMatchObject({ status: 400, body: { message: "Reply cannot be empty" } });
  });

  it("marks only a file sent for approval, on its latest version, until it is approved", async () => {
    const plain = await A.agent.request("POST", `/api/clients/${A1.id}/upload`, {
      body: pdfForm("plain.pdf", false),
    });
    expect((await A1.agent.post(marksPath(plain.body.id), POINT)).status).toBe(404);

    const file = await fileForApproval();
    expect((await A1.agent.post(marksPath(file.id, 2), POINT)).status).toBe(404);
    await A1.agent.patch(`/api/messages/${file.id}/feedback`, {
      feedbackStatus: "needs_work",
      feedbackComment: "See the marks",
    });
    const second = await A.agent.request("POST", `/api/messages/${file.id}/versions`, {
      body: pdfForm("poster-v2.pdf"),
    });
    expect(second.status).toBe(201);
    const onOld = await A1.agent.post(marksPath(file.id, 1), POINT);
    expect(onOld).toMatchObject({
      status: 409,
      body: { message: "Marks can only be added to the latest version" },
    });
    // Any message of the thread names it; the version number picks the version.
    const onNew = await mark(A1.agent, second.body.id, POINT, 2);
    expect(
      (await A.agent.get(marksPath(file.id, 2))).body.map((m: { id: string }) => m.id),
    ).toContain(onNew.id);
    await A1.agent.patch(`/api/messages/${second.body.id}/feedback`, {
      feedbackStatus: "approved",
    });
    expect(await A1.agent.post(marksPath(second.body.id, 2), POINT)).toMatchObject({
      status: 409,
      body: { message: "This version is approved: marks can no longer be added" },
    });
  });

  it("keeps a staff-only mark from the client's side by every path", async () => {
    const file = await fileForApproval();
    const refused = await A1.agent.post(marksPath(file.id), { ...POINT, visibility: "internal" });
    expect(refused).toMatchObject({
      status: 403,
      body: { message: "Only the team can make internal marks" },
    });
    const clientSocket = await TestSocket.open(server.url, { cookie: A1.agent.cookieHeader });
    const staffSocket = await TestSocket.open(server.url, { cookie: assigned.agent.cookieHeader });
    try {
      const internal = await mark(assigned.agent, file.id, {
        ...POINT,
        comment: "Client will hate the green",
        visibility: "internal",
      });
      await staffSocket.waitFor((event) => event.type === "annotations_changed");
      for (const agent of [A1.agent, dora.agent]) {
        expect((await agent.get(marksPath(file.id))).body).toEqual([]);
        expect(
          (await agent.post(`/api/annotations/${internal.id}/replies`, { content: "?" })).status,
        ).toBe(404);
        expect(
          (await agent.patch(`/api/annotations/${internal.id}`, { resolved: true })).status,
        ).toBe(404);
      }
      // A mark both sides see: the client's socket hears of it; it never heard of the other.
      const shared = await mark(A.agent, file.id, { ...POINT, comment: "Shared" });
      const heard = await clientSocket.waitFor((event) => event.type === "annotations_changed");
      expect(heard).toMatchObject({ clientId: A1.id, messageId: file.id });
      expect(
        clientSocket.events.filter((event) => event.type === "annotations_changed"),
      ).toHaveLength(1);
      const staffList = await A.agent.get(marksPath(file.id));
      expect(
        staffList.body.map((m: { id: string; visibility: string }) => [m.id, m.visibility]),
      ).toEqual([
        [internal.id, "internal"],
        [shared.id, "client"],
      ]);
    } finally {
      clientSocket.ws.close();
      staffSocket.ws.close();
    }
  });

  it("answers the authorization matrix: marks never cross workspaces or clients", async () => {
    const file = await fileForApproval();
    const existing = await mark(A1.agent, file.id);
    const insiders: [string, TestAgent][] = [
      ["owner", A.agent],
      ["admin", admin.agent],
      ["assigned member", assigned.agent],
      ["client", A1.agent],
      ["second contact", dora.agent],
    ];
    const outsiders: [string, TestAgent][] = [
      ["unassigned member", unassigned.agent],
      ["other client of the workspace", A2.agent],
      ["other owner", B.agent],
      ["other owner's client", B1.agent],
    ];
    for (const [who, agent] of insiders) {
      expect((await agent.get(marksPath(file.id))).status, who).toBe(200);
      expect((await agent.post(marksPath(file.id), { ...POINT, comment: who })).status, who).toBe(
        201,
      );
      expect(
        (await agent.post(`/api/annotations/${existing.id}/replies`, { content: who })).status,
        who,
      ).toBe(201);
      expect(
        (await agent.patch(`/api/annotations/${existing.id}`, { resolved: false })).status,
        who,
      ).toBe(200);
    }
    const before = await Annotation.query().where("messageId", file.id).resultSize();
    for (const [who, agent] of [
      ...outsiders,
      ["anonymous", server.agent()] as [string, TestAgent],
    ]) {
      const expected = who === "anonymous" ? 401 : 404;
      expect((await agent.get(marksPath(file.id))).status, who).toBe(expected);
      expect((await agent.post(marksPath(file.id), POINT)).status, who).toBe(expected);
      expect(
        (await agent.post(`/api/annotations/${existing.id}/replies`, { content: "x" })).status,
        who,
      ).toBe(expected);
      expect(
        (await agent.patch(`/api/annotations/${existing.id}`, { resolved: true })).status,
        who,
      ).toBe(expected);
    }
    expect(await Annotation.query().where("messageId", file.id).resultSize()).toBe(before);
    // Unknown and malformed ids are 404 too.
    for (const path of [
      marksPath("00000000-0000-4000-8000-000000000000"),
      marksPath("nope"),
      marksPath(file.id, 0),
      "/api/annotations/nope/replies",
    ]) {
      expect((await A.agent.post(path, POINT)).status, path).toBe(
        path.endsWith("replies") ? 400 : 404,
      );
    }
    // A removed contact loses the marks with the conversation.
    expect((await A.agent.delete(`/api/clients/${A1.id}/contacts/${dora.id}`)).status).toBe(200);
    expect((await dora.agent.get(marksPath(file.id))).status).toBe(401);
    expect(await User.query().findById(dora.userId)).toBeDefined();
  });
});
