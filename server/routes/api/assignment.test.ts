import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addClient, addJoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { addStaff } from "../../../tests/support/team";
import { TestSocket } from "../../../tests/support/ws-client";

// Issue 26, assignment: the owner and admins have every client of the workspace, a member the
// clients assigned to them; any other client answers 404 to a member, as another workspace's.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function agency() {
  const owner = await signUpOwner(server, "Olga Owner");
  await setTier(owner.id, "agency");
  const admin = await addStaff(server, owner, "admin", "Adam Admin");
  const member = await addStaff(server, owner, "member", "Mia Member");
  const acme = await addJoinedClient(server, owner, { name: "Acme" });
  const beta = await addJoinedClient(server, owner, { name: "Beta" });
  return { owner, admin, member, acme, beta };
}

const names = async (staff: SignedInOwner) =>
  ((await staff.agent.get("/api/clients")).body as { name: string }[]).map((c) => c.name).sort();

describe("who sees which client", () => {
  it("gives the owner and admins every client, a member only the assigned ones", async () => {
    const { owner, admin, member, acme, beta } = await agency();
    expect(await names(owner)).toEqual(["Acme", "Beta"]);
    expect(await names(admin)).toEqual(["Acme", "Beta"]);
    expect(await names(member)).toEqual([]);
    const hidden = await member.agent.get(`/api/clients/${acme.id}/messages`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: "Client not found" });

    const assigned = await owner.agent.put(`/api/clients/${acme.id}/assignees`, {
      userIds: [member.id],
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toEqual({ assigneeIds: [member.id], leadUserId: member.id });

    expect(await names(member)).toEqual(["Acme"]);
    expect((await member.agent.get(`/api/clients/${acme.id}/assignees`)).body).toEqual({
      assigneeIds: [member.id],
      leadUserId: member.id,
    });
    const sent = await member.agent.post(`/api/clients/${acme.id}/messages`, {
      content: "Hello from Mia",
    });
    expect(sent.status).toBe(201);
    expect((await acme.agent.get(`/api/clients/${acme.id}/messages`)).body).toEqual([
      expect.objectContaining({ content: "Hello from Mia", senderRole: "owner" }),
    ]);
    // The client never learns who handles it.
    const asClient = await acme.agent.get(`/api/clients/${acme.id}/assignees`);
    expect(asClient.status).toBe(403);
    expect(asClient.body).toEqual({ message: "Only the owner of this conversation can do that" });
    expect((await member.agent.get(`/api/clients/${beta.id}`)).status).toBe(404);
    const search = await member.agent.get("/api/search?q=Hello");
    expect(search.status).toBe(200);

    // Unassigned again: gone at once.
    await admin.agent.put(`/api/clients/${acme.id}/assignees`, { userIds: [] });
    expect(await names(member)).toEqual([]);
    expect((await member.agent.get(`/api/clients/${acme.id}/messages`)).status).toBe(404);
  });

  it("keeps search within a member's clients", async () => {
    const { owner, member, acme, beta } = await agency();
    await owner.agent.post(`/api/clients/${acme.id}/messages`, { content: "kiwi for Acme" });
    await owner.agent.post(`/api/clients/${beta.id}/messages`, { content: "kiwi for Beta" });
    await owner.agent.put(`/api/clients/${beta.id}/assignees`, { userIds: [member.id] });
    const found = await member.agent.get("/api/search?q=kiwi");
    expect(found.status).toBe(200);
    expect((found.body.results as { clientName: string }[]).map((hit) => hit.clientName)).toEqual([
      "Beta",
    ]);
    const theirs = await owner.agent.get("/api/search?q=kiwi");
    expect(theirs.body.results).toHaveLength(2);
  });

  it("makes a member who adds a client its lead", async () => {
    const { member } = await agency();
    const added = await addClient(member, { name: "Gamma" });
    expect(await names(member)).toEqual(["Gamma"]);
    expect((await member.agent.get(`/api/clients/${added.id}/assignees`)).body).toEqual({
      assigneeIds: [member.id],
      leadUserId: member.id,
    });
  });
});

describe("PUT /api/clients/{id}/assignees", () => {
  it("is for the owner and admins; another workspace's client is 404", async () => {
    const { owner, member, acme } = await agency();
    await owner.agent.put(`/api/clients/${acme.id}/assignees`, { userIds: [member.id] });
    const asMember = await member.agent.put(`/api/clients/${acme.id}/assignees`, {
      userIds: [],
    });
    expect(asMember.status).toBe(403);
    expect(asMember.body).toEqual({
      message: "Only the workspace's owner and admins can do that",
    });
    const stranger = await signUpOwner(server, "Stan Stranger");
    const other = await stranger.agent.put(`/api/clients/${acme.id}/assignees`, { userIds: [] });
    expect(other.status).toBe(404);
    expect(
      (await acme.agent.put(`/api/clients/${acme.id}/assignees`, { userIds: [] })).status,
    ).toBe(403);
    expect((await owner.agent.get(`/api/clients/${acme.id}/assignees`)).body.assigneeIds).toEqual([
      member.id,
    ]);
  });

  it("takes people of the team only, with the lead among them", async () => {
    const { owner, admin, member, acme } = await agency();
    const stranger = await signUpOwner(server, "Stan Stranger");
    const outsider = await owner.agent.put(`/api/clients/${acme.id}/assignees`, {
      userIds: [member.id, stranger.id],
    });
    expect(outsider.status).toBe(400);
    expect(outsider.body).toEqual({ message: "Assign people of your team" });
    const clientUser = await owner.agent.put(`/api/clients/${acme.id}/assignees`, {
      userIds: [acme.userId],
    });
    expect(clientUser.body).toEqual({ message: "Assign people of your team" });
    const badLead = await owner.agent.put(`/api/clients/${acme.id}/assignees`, {
      userIds: [member.id],
      leadUserId: admin.id,
    });
    expect(badLead.status).toBe(400);
    expect(badLead.body).toEqual({ message: "The lead must be one of the assignees" });
    expect((await owner.agent.get(`/api/clients/${acme.id}/assignees`)).body).toEqual({
      assigneeIds: [],
      leadUserId: null,
    });
    const both = await owner.agent.put(`/api/clients/${acme.id}/assignees`, {
      userIds: [member.id, admin.id, member.id],
      leadUserId: admin.id,
    });
    expect(both.body).toEqual({ assigneeIds: [member.id, admin.id], leadUserId: admin.id });
  });
});

describe("live", () => {
  it("tells a member's open pages when a client is given or taken, and delivers only then", async () => {
    const { owner, admin, member, acme } = await agency();
    const memberSocket = await TestSocket.open(server.url, { cookie: member.agent.cookieHeader });
    const adminSocket = await TestSocket.open(server.url, { cookie: admin.agent.cookieHeader });
    try {
      const before = await acme.agent.post(`/api/clients/${acme.id}/messages`, {
        content: "Before",
      });
      await adminSocket.waitFor((event) => event.messageId === before.body.id);
      expect(memberSocket.eventsFor(before.body.id)).toEqual([]);

      await owner.agent.put(`/api/clients/${acme.id}/assignees`, { userIds: [member.id] });
      await memberSocket.waitFor(
        (event) => event.type === "client_access_changed" && event.clientId === acme.id,
      );
      await adminSocket.waitFor((event) => event.type === "client_access_changed");
      const during = await acme.agent.post(`/api/clients/${acme.id}/messages`, {
        content: "During",
      });
      await memberSocket.waitFor((event) => event.messageId === during.body.id);

      await owner.agent.put(`/api/clients/${acme.id}/assignees`, { userIds: [] });
      await memberSocket.waitFor(
        (event) =>
          event.type === "client_access_changed" &&
          memberSocket.events.filter((e) => e.type === "client_access_changed").length === 2,
      );
      const after = await acme.agent.post(`/api/clients/${acme.id}/messages`, { content: "After" });
      await adminSocket.waitFor((event) => event.messageId === after.body.id);
      expect(memberSocket.eventsFor(after.body.id)).toEqual([]);
    } finally {
      memberSocket.close();
      adminSocket.close();
    }
  });
});

describe("the workspace's plan and branding", () => {
  it("are its owner's: staff see the plan, only the owner changes billing and branding", async () => {
    const { admin } = await agency();
    expect((await admin.agent.get("/api/user")).body.accountTier).toBe("agency");
    expect((await admin.agent.get("/api/user/account-tier")).body.currentTier).toBe("agency");
    const colours = await admin.agent.patch("/api/user/color-scheme", {
      primaryColor: "#112233",
      backgroundColor: "#ffffff",
      textColor: "#000000",
    });
    expect(colours.status).toBe(403);
    expect(colours.body).toEqual({ message: "Only the workspace's owner can change its branding" });
    const checkout = await admin.agent.post("/api/subscription/create-checkout", {
      tier: "pro",
      period: "monthly",
    });
    expect(checkout.status).toBe(403);
    expect(checkout.body).toEqual({ message: "Only the workspace's owner manages billing" });
  });
});
