import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SavedReply } from "../../models";
import { MAX_SAVED_REPLIES } from "../../../shared/schemas/saved-replies";
import { addClient, addJoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { addStaff } from "../../../tests/support/team";

// Issue 28, point 1: a workspace's saved replies, with variables filled in per conversation.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const PATH = "/api/saved-replies";

async function agency() {
  const owner = await signUpOwner(server, "Olga Owner");
  await setTier(owner.id, "agency");
  const admin = await addStaff(server, owner, "admin", "Adam Admin");
  const member = await addStaff(server, owner, "member", "Mia Member");
  const acme = await addJoinedClient(server, owner, { name: "Carla Client" });
  return { owner, admin, member, acme };
}

async function create(staff: SignedInOwner, title: string, text = `Text of ${title}`) {
  const created = await staff.agent.post(PATH, { title, text });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body as { id: string; title: string; text: string };
}

const titles = async (staff: SignedInOwner) =>
  ((await staff.agent.get(PATH)).body as { title: string }[]).map((reply) => reply.title);

describe("saved replies", () => {
  it("are created, listed by title, edited and deleted", async () => {
    const owner = await signUpOwner(server, "Olga Owner");
    expect((await owner.agent.get(PATH)).body).toEqual([]);

    const created = await owner.agent.post(PATH, {
      title: "  Invoice sent ",
      text: "\n Hi {client.firstName}, the invoice is on its way.\n",
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      title: "Invoice sent",
      text: "Hi {client.firstName}, the invoice is on its way.",
      createdByName: "Olga Owner",
      createdAt: expect.any(String),
      updatedAt: created.body.createdAt,
      canChange: true,
    });
    await create(owner, "b: thanks");
    await create(owner, "After hours");
    expect(await titles(owner)).toEqual(["After hours", "b: thanks", "Invoice sent"]);

    const edited = await owner.agent.patch(`${PATH}/${created.body.id}`, {
      text: "The invoice is out.",
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: "Invoice sent", text: "The invoice is out." });
    const renamed = await owner.agent.patch(`${PATH}/${created.body.id}`, { title: "Zz invoice" });
    expect(renamed.body).toMatchObject({ title: "Zz invoice", text: "The invoice is out." });
    expect(await titles(owner)).toEqual(["After hours", "b: thanks", "Zz invoice"]);

    const deleted = await owner.agent.delete(`${PATH}/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe("");
    expect(await titles(owner)).toEqual(["After hours", "b: thanks"]);
    expect((await owner.agent.delete(`${PATH}/${created.body.id}`)).status).toBe(404);
  });

  it("refuses bad input with a clear message and changes nothing", async () => {
    const owner = await signUpOwner(server);
    const reply = await create(owner, "Welcome", "Welcome aboard");
    const refused: [unknown, string][] = [
      [{ title: "   ", text: "x" }, "Title is required"],
      [{ title: "x".repeat(101), text: "x" }, "Title must be at most 100 characters"],
      [{ title: "Empty" }, "Text is required"],
      [{ title: "Empty", text: " \n\t " }, "Text is required"],
      [
        { title: "Long", text: "x".repeat(10_001) },
        "Text is limited to 10,000 characters, as a message is",
      ],
      [{ title: "Extra", text: "x", workspaceId: owner.id }, "Unknown field: workspaceId"],
    ];
    for (const [body, message] of refused) {
      const answer = await owner.agent.post(PATH, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toEqual({ message });
    }
    const patched = await owner.agent.patch(`${PATH}/${reply.id}`, {});
    expect(patched.status).toBe(400);
    expect(patched.body).toEqual({ message: "Nothing to change: send a title or a text" });
    expect((await owner.agent.patch(`${PATH}/${reply.id}`, { text: "" })).status).toBe(400);
    // At the limit exactly is fine.
    expect(
      (await owner.agent.post(PATH, { title: "y".repeat(100), text: "z".repeat(10_000) })).status,
    ).toBe(201);
    const listed = (await owner.agent.get(PATH)).body as { title: string; text: string }[];
    expect(listed.map((r) => r.title)).toEqual(["Welcome", "y".repeat(100)]);
    expect(listed[0]!.text).toBe("Welcome aboard");
  });

  it("keeps titles unique in a workspace, whatever their case (409)", async () => {
    const owner = await signUpOwner(server);
    const first = await create(owner, "Welcome");
    const second = await create(owner, "Goodbye");
    const again = await owner.agent.post(PATH, { title: "welcome", text: "Hi" });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'A saved reply named "Welcome" already exists' });
    const rename = await owner.agent.patch(`${PATH}/${second.id}`, { title: "WELCOME" });
    expect(rename.status).toBe(409);
    // Its own title in another case is not a clash.
    const recased = await owner.agent.patch(`${PATH}/${first.id}`, { title: "welcome" });
    expect(recased.status).toBe(200);
    expect(await titles(owner)).toEqual(["Goodbye", "welcome"]);
    // Another workspace may use the same title.
    await create(await signUpOwner(server), "Welcome");
  });

  it(`keeps at most ${MAX_SAVED_REPLIES} per workspace`, async () => {
    const owner = await signUpOwner(server);
    const now = new Date();
    await SavedReply.query().insert(
      Array.from({ length: MAX_SAVED_REPLIES - 1 }, (_, i) => ({
        workspaceId: owner.id,
        createdBy: owner.id,
        title: `Reply ${i}`,
        text: "x",
        createdAt: now,
        updatedAt: now,
      })),
    );
    await create(owner, "The last one");
    const over = await owner.agent.post(PATH, { title: "One too many", text: "x" });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      message: "A workspace can keep up to 500 saved replies: delete one to add another",
    });
  });

  it("are the workspace's: shared by its staff, 404 to any other workspace", async () => {
    const { owner, admin, member } = await agency();
    const ownerReply = await create(owner, "From the owner");
    const memberReply = await create(member, "From the member");
    const everyone = ["From the member", "From the owner"];
    expect(await titles(owner)).toEqual(everyone);
    expect(await titles(admin)).toEqual(everyone);
    expect(await titles(member)).toEqual(everyone);

    const stranger = await signUpOwner(server, "Sid Stranger");
    expect(await titles(stranger)).toEqual([]);
    for (const id of [ownerReply.id, "not-an-id", "00000000-0000-4000-8000-000000000000"]) {
      const edit = await stranger.agent.patch(`${PATH}/${id}`, { text: "Mine now" });
      expect(edit.status).toBe(404);
      expect(edit.body).toEqual({ message: "Saved reply not found" });
      expect((await stranger.agent.delete(`${PATH}/${id}`)).status).toBe(404);
    }
    const strangersClient = await addClient(stranger);
    const fill = await stranger.agent.post(`${PATH}/${ownerReply.id}/fill`, {
      clientId: strangersClient.id,
    });
    expect(fill.status).toBe(404);
    expect(fill.body).toEqual({ message: "Saved reply not found" });
    expect((await owner.agent.get(PATH)).body.map((r: { text: string }) => r.text)).toEqual([
      "Text of From the member",
      "Text of From the owner",
    ]);
    expect(memberReply.title).toBe("From the member");
  });

  it("are changed by who wrote them, or by the owner and admins", async () => {
    const { owner, admin, member } = await agency();
    const ownerReply = await create(owner, "Owner's");
    const memberReply = await create(member, "Member's");
    const canChange = async (staff: SignedInOwner) =>
      Object.fromEntries(
        ((await staff.agent.get(PATH)).body as { title: string; canChange: boolean }[]).map(
          (reply) => [reply.title, reply.canChange],
        ),
      );
    expect(await canChange(member)).toEqual({ "Member's": true, "Owner's": false });
    expect(await canChange(admin)).toEqual({ "Member's": true, "Owner's": true });

    const refused = await member.agent.patch(`${PATH}/${ownerReply.id}`, { text: "Changed" });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      message:
        "Only who wrote this saved reply, or the workspace's owner and admins, can change it",
    });
    expect((await member.agent.delete(`${PATH}/${ownerReply.id}`)).status).toBe(403);
    expect((await member.agent.patch(`${PATH}/${memberReply.id}`, { text: "Mine" })).status).toBe(
      200,
    );
    const byAdmin = await admin.agent.patch(`${PATH}/${memberReply.id}`, { text: "Reworded" });
    expect(byAdmin.body).toMatchObject({ text: "Reworded", createdByName: "Mia Member" });
    expect((await owner.agent.delete(`${PATH}/${memberReply.id}`)).status).toBe(204);
    expect(await titles(member)).toEqual(["Owner's"]);
  });

  it("are for the team only: a client's person gets 403, nobody signed in 401", async () => {
    const { owner, acme } = await agency();
    const reply = await create(owner, "Welcome");
    const message = "Saved replies are for the workspace's team";
    const attempts = [
      acme.agent.get(PATH),
      acme.agent.post(PATH, { title: "Client's", text: "x" }),
      acme.agent.patch(`${PATH}/${reply.id}`, { text: "x" }),
      acme.agent.delete(`${PATH}/${reply.id}`),
      acme.agent.post(`${PATH}/${reply.id}/fill`, { clientId: acme.id }),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ message });
    }
    const anonymous = server.agent();
    expect((await anonymous.get(PATH)).status).toBe(401);
    expect((await anonymous.post(`${PATH}/${reply.id}/fill`, { clientId: acme.id })).status).toBe(
      401,
    );
    expect(await titles(owner)).toEqual(["Welcome"]);
  });
});

describe("filling a saved reply", () => {
  const TEMPLATE =
    "Hi {client.firstName} ({client.name}), {me.firstName} here: {portal.link} {unknown} {client.firstname} {}";

  it("fills each variable for the conversation and leaves anything else as typed", async () => {
    const { owner, member, acme } = await agency();
    const reply = await create(owner, "All of them", TEMPLATE);
    const filled = await owner.agent.post(`${PATH}/${reply.id}/fill`, { clientId: acme.id });
    expect(filled.status).toBe(200);
    expect(filled.body).toEqual({
      content: `Hi Carla (Carla Client), Olga here: ${server.url}/client/${acme.id} {unknown} {client.firstname} {}`,
    });
    // The writer is whoever inserts it.
    await owner.agent.put(`/api/clients/${acme.id}/assignees`, { userIds: [member.id] });
    const byMember = await member.agent.post(`${PATH}/${reply.id}/fill`, { clientId: acme.id });
    expect(byMember.body.content).toContain("Mia here");
    // The text kept is unchanged.
    expect((await owner.agent.get(PATH)).body[0].text).toBe(TEMPLATE);
  });

  it("names a client who has not joined by the name the staff gave", async () => {
    const owner = await signUpOwner(server, "Olga");
    const pending = await addClient(owner, { name: "Dora" });
    const reply = await create(owner, "Hello", "Dear {client.firstName}, {me.firstName}");
    const filled = await owner.agent.post(`${PATH}/${reply.id}/fill`, { clientId: pending.id });
    expect(filled.body).toEqual({ content: "Dear Dora, Olga" });
  });

  it("answers 404 for a client the staff member does not have", async () => {
    const { owner, member, acme } = await agency();
    const reply = await create(member, "Hello", "Hi {client.name}");
    const stranger = await signUpOwner(server);
    const strangersClient = await addClient(stranger);
    for (const [staff, clientId] of [
      [member, acme.id], // not assigned to them
      [owner, strangersClient.id], // another workspace's
      [owner, "00000000-0000-4000-8000-000000000000"],
      [owner, "not-an-id"],
    ] as const) {
      const answer = await staff.agent.post(`${PATH}/${reply.id}/fill`, { clientId });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: "Client not found" });
    }
    expect((await owner.agent.post(`${PATH}/${reply.id}/fill`, {})).status).toBe(400);
  });
});

describe("handing the workspace over", () => {
  it("takes its saved replies to the new owner", async () => {
    const owner = await signUpOwner(server, "Olga Owner");
    await setTier(owner.id, "agency");
    const admin = await addStaff(server, owner, "admin", "Adam Admin");
    await create(owner, "Welcome");
    const handed = await owner.agent.post("/api/team/owner", {
      userId: admin.id,
      password: owner.password,
    });
    expect(handed.status, JSON.stringify(handed.body)).toBe(200);
    expect(await titles(admin)).toEqual(["Welcome"]);
    expect(await titles(owner)).toEqual(["Welcome"]);
  });
});
