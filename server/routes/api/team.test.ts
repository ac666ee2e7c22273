import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentFromIp, freshIp, setTier } from "../../../tests/support/conversations";
import { testDatabase } from "../../../tests/support/database";
import {
  type SignedInOwner,
  signUpOwner,
  startConversation,
  uniqueEmail,
} from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { TestSocket } from "../../../tests/support/ws-client";
import * as workspaces from "../../migrations/20261129030000_workspaces";
import * as clientAssignees from "../../migrations/20261129050000_client_assignees";

// Issue 26: an owner's account is a workspace; its owner and admins invite people to it,
// change their roles and remove them.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ env: { TRUST_PROXY: "true" } });
});
/** Sign-ups from addresses of their own: this file makes more people than one IP may. */
const people = () => ({
  agent: () => new AgentFromIp(server.url, freshIp()),
  smtp: server.smtp,
});
afterAll(() => server?.close());

describe("GET /api/team/members", () => {
  it("lists an owner's workspace: the owner alone, as its owner", async () => {
    const { owner } = await startConversation(server, { ownerName: "Olga Owner" });
    const answer = await owner.agent.get("/api/team/members");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      {
        id: owner.id,
        fullName: "Olga Owner",
        email: owner.email,
        role: "owner",
        profilePicture: null,
        joinedAt: expect.any(String),
      },
    ]);
  });

  it("is for the owner's side: a client gets 403, a stranger 401", async () => {
    const { client } = await startConversation(server);
    const asClient = await client.agent.get("/api/team/members");
    expect(asClient.status).toBe(403);
    expect(asClient.body).toEqual({ message: "Only members of a workspace can do that" });
    expect((await server.agent().get("/api/team/members")).status).toBe(401);
  });
});

describe("workspaces in the database", () => {
  it("puts an owner inserted without one in a workspace of their own, and clients in none", async () => {
    const [owner] = await server
      .db("users")
      .insert({ email: `o-${randomUUID()}@example.test`, fullName: "Raw Owner", role: "owner" })
      .returning(["id", "workspaceId", "teamRole"]);
    expect(owner).toEqual({ id: owner.id, workspaceId: owner.id, teamRole: "owner" });
    const [client] = await server
      .db("users")
      .insert({ email: `c-${randomUUID()}@example.test`, fullName: "Raw Client", role: "client" })
      .returning(["workspaceId", "teamRole"]);
    expect(client).toEqual({ workspaceId: null, teamRole: null });
    await expect(
      server.db("users").insert({
        email: `c-${randomUUID()}@example.test`,
        fullName: "Client In A Workspace",
        role: "client",
        workspaceId: owner.id,
        teamRole: "member",
      }),
    ).rejects.toThrow(/users_workspace_by_side/);
  });

  it("migrates existing owners to a workspace of one", async () => {
    const db = await testDatabase({ isolated: true });
    try {
      // Back to before workspaces: what was built on them goes first.
      await clientAssignees.down(db);
      await workspaces.down(db);
      const [owner] = await db
        .insert({ email: "before@example.test", full_name: "Before Teams", role: "owner" })
        .into("users")
        .returning("id");
      await db
        .insert({ email: "client@example.test", full_name: "A Client", role: "client" })
        .into("users");
      await workspaces.up(db);
      expect(
        await db("users").orderBy("role", "desc").select("role", "workspaceId", "teamRole"),
      ).toEqual([
        { role: "owner", workspaceId: owner.id, teamRole: "owner" },
        { role: "client", workspaceId: null, teamRole: null },
      ]);
    } finally {
      await db.destroy();
    }
  });
});

const MANAGE = "Only the workspace's owner and admins can manage the team";
const INVALID = { message: "This team invite is no longer valid" };
const DAY_MS = 24 * 3_600_000;

async function agencyOwner(fullName = "Olga Owner"): Promise<SignedInOwner> {
  const owner = await signUpOwner(people(), fullName);
  await setTier(owner.id, "agency");
  return owner;
}

async function invite(inviter: SignedInOwner, email: string, role = "member") {
  const answer = await inviter.agent.post("/api/team/members", { email, role });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body as { id: string; inviteToken: string; inviteUrl: string };
}

/** Someone signed up on their own, then invited to `owner`'s workspace and joined. */
async function teammate(owner: SignedInOwner, role = "member", fullName = "Mia Member") {
  const person = await signUpOwner(people(), fullName);
  const { inviteToken } = await invite(owner, person.email, role);
  const joined = await person.agent.post(`/api/team/invites/${inviteToken}`);
  expect(joined.status, JSON.stringify(joined.body)).toBe(200);
  return person;
}

const rowOf = (id: string) => server.db("users").where({ id }).first("workspaceId", "teamRole");

describe("POST /api/team/members (inviting)", () => {
  it("answers the invite with its link, mails it, and the link shows who invites to what", async () => {
    const owner = await agencyOwner();
    await owner.agent.patch("/api/user/profile", {
      fullName: "Olga Owner",
      companyName: "Ortega Studio",
    });
    const address = uniqueEmail("invitee");
    const answer = await owner.agent.post("/api/team/members", {
      email: address.toUpperCase(),
      role: "member",
    });
    expect(answer.status).toBe(201);
    const token = answer.body.inviteToken;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(answer.body).toEqual({
      id: expect.any(String),
      email: address,
      role: "member",
      invitedAt: expect.any(String),
      expiresAt: expect.any(String),
      inviteUrl: `${server.url}/team/invite/${token}`,
      inviteToken: token,
    });
    expect(Date.parse(answer.body.expiresAt) - Date.parse(answer.body.invitedAt)).toBe(7 * DAY_MS);
    // Kept only as its SHA-256.
    const row = await server.db("team_invites").where({ id: answer.body.id }).first();
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);

    await server.mailSettled();
    const mail = await server.smtp.waitFor(address);
    expect(mail.subject).toBe("Olga Owner invited you to Ortega Studio on ClientDesk");
    expect(mail.text).toContain(answer.body.inviteUrl);

    const shown = await server.agent().get(`/api/team/invites/${token}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      workspaceName: "Ortega Studio",
      invitedByName: "Olga Owner",
      email: address,
      role: "member",
    });
    const listed = await owner.agent.get("/api/team/invites");
    expect(listed.body).toEqual([
      {
        id: answer.body.id,
        email: address,
        role: "member",
        invitedAt: answer.body.invitedAt,
        expiresAt: answer.body.expiresAt,
        invitedByName: "Olga Owner",
      },
    ]);
  });

  it("reissues a pending invite to the same address: a new link, the old one dead, mailed again", async () => {
    const owner = await agencyOwner();
    const address = uniqueEmail("twice");
    const first = await invite(owner, address, "member");
    const second = await invite(owner, address, "admin");
    expect(second.id).toBe(first.id);
    expect(second.inviteToken).not.toBe(first.inviteToken);
    expect((await server.agent().get(`/api/team/invites/${first.inviteToken}`)).body).toEqual(
      INVALID,
    );
    const shown = await server.agent().get(`/api/team/invites/${second.inviteToken}`);
    expect(shown.body.role).toBe("admin");
    expect((await owner.agent.get("/api/team/invites")).body).toHaveLength(1);
    await server.mailSettled();
    await server.smtp.waitFor(address, (mail) => mail.text.includes(second.inviteUrl));
    expect(server.smtp.mailsTo(address)).toHaveLength(2);
  });

  it("refuses someone already in the team, a bad address and a bad role", async () => {
    const owner = await agencyOwner();
    const member = await teammate(owner);
    for (const email of [owner.email, member.email.toUpperCase()]) {
      const answer = await owner.agent.post("/api/team/members", { email, role: "member" });
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({ message: `${email.toLowerCase()} is already in your team` });
    }
    const badEmail = await owner.agent.post("/api/team/members", { email: "nope", role: "admin" });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body).toEqual({ message: "Please enter a valid email address" });
    for (const role of ["owner", "boss", undefined]) {
      const badRole = await owner.agent.post("/api/team/members", { email: uniqueEmail(), role });
      expect(badRole.status).toBe(400);
      expect(badRole.body).toEqual({ message: "Role must be admin or member" });
    }
  });
});

describe("seats", () => {
  it("are part of the Agency plan: Free and Pro get 403", async () => {
    const owner = await signUpOwner(people());
    for (const tier of ["free", "pro"] as const) {
      await setTier(owner.id, tier);
      const answer = await owner.agent.post("/api/team/members", {
        email: uniqueEmail(),
        role: "member",
      });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ message: "Team members are part of the Agency plan" });
    }
  });

  it("are 3 on Agency, the owner and pending invites included; expired or withdrawn ones free theirs", async () => {
    const owner = await agencyOwner();
    const first = await invite(owner, uniqueEmail());
    await invite(owner, uniqueEmail());
    const full = await owner.agent.post("/api/team/members", {
      email: uniqueEmail(),
      role: "member",
    });
    expect(full.status).toBe(402);
    expect(full.body).toEqual({
      message: "All 3 seats are taken: add a seat to invite someone else",
    });
    // Reissuing a pending invite takes no other seat.
    const again = await owner.agent.get("/api/team/invites");
    const reissue = await owner.agent.post("/api/team/members", {
      email: again.body[0].email,
      role: "admin",
    });
    expect(reissue.status).toBe(201);

    const withdrawn = await owner.agent.delete(`/api/team/invites/${first.id}`);
    expect(withdrawn.body).toEqual({ success: true, message: "Invite withdrawn" });
    const third = await invite(owner, uniqueEmail());
    expect(
      (await owner.agent.post("/api/team/members", { email: uniqueEmail(), role: "member" }))
        .status,
    ).toBe(402);
    await server
      .db("team_invites")
      .where({ id: third.id })
      .update({ expiresAt: new Date(0) });
    await invite(owner, uniqueEmail());
  });

  it("follow the workspace owner's plan, not the acting admin's own row", async () => {
    const owner = await agencyOwner();
    const admin = await teammate(owner, "admin", "Ada Admin");
    await invite(admin, uniqueEmail());
    await setTier(owner.id, "pro");
    await setTier(admin.id, "agency");
    const answer = await admin.agent.post("/api/team/members", {
      email: uniqueEmail(),
      role: "member",
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: "Team members are part of the Agency plan" });
  });

  it("are 3 for everyone when billing is off", async () => {
    const selfHosted = await startTestServer({ db: server.db, env: { BILLING_MODE: "off" } });
    try {
      const owner = await signUpOwner(selfHosted);
      for (let i = 0; i < 2; i += 1) {
        const answer = await owner.agent.post("/api/team/members", {
          email: uniqueEmail(),
          role: "member",
        });
        expect(answer.status).toBe(201);
      }
      const full = await owner.agent.post("/api/team/members", {
        email: uniqueEmail(),
        role: "member",
      });
      expect(full.status).toBe(402);
    } finally {
      await selfHosted.close();
    }
  });
});

describe("who may manage the team", () => {
  it("not a member (403), a client (403) or nobody (401); another workspace's people are 404", async () => {
    const { owner, client } = await startConversation(people(), { tier: "agency" });
    const member = await teammate(owner);
    const pending = await invite(owner, uniqueEmail());
    const other = await agencyOwner("Otto Other");
    const otherMember = await teammate(other);
    const otherInvite = await invite(other, uniqueEmail());

    const attempts = (agent: SignedInOwner["agent"]) => [
      agent.post("/api/team/members", { email: uniqueEmail(), role: "member" }),
      agent.get("/api/team/invites"),
      agent.delete(`/api/team/invites/${pending.id}`),
      agent.patch(`/api/team/members/${owner.id}`, { role: "admin" }),
      agent.delete(`/api/team/members/${owner.id}`),
    ];
    for (const agent of [member.agent, client.agent]) {
      for (const answer of await Promise.all(attempts(agent))) {
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual({ message: MANAGE });
      }
    }
    for (const answer of await Promise.all(attempts(server.agent()))) {
      expect(answer.status).toBe(401);
    }
    for (const answer of [
      await owner.agent.patch(`/api/team/members/${otherMember.id}`, { role: "admin" }),
      await owner.agent.delete(`/api/team/members/${otherMember.id}`),
      await owner.agent.delete(`/api/team/members/${client.userId}`),
      await owner.agent.delete(`/api/team/members/${randomUUID()}`),
      await owner.agent.delete("/api/team/members/not-an-id"),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: "Team member not found" });
    }
    for (const id of [otherInvite.id, randomUUID(), "nope"]) {
      const answer = await owner.agent.delete(`/api/team/invites/${id}`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ message: "Invite not found" });
    }
    expect((await rowOf(otherMember.id)).workspaceId).toBe(other.id);
  });
});

describe("POST /api/team/invites/{token} (joining)", () => {
  it("joins once: the account is in the workspace with the invite's role, and keeps its sign-in", async () => {
    const owner = await agencyOwner();
    const person = await signUpOwner(people(), "Mia Member");
    const { inviteToken } = await invite(owner, person.email.toUpperCase(), "admin");
    const joined = await person.agent.post(`/api/team/invites/${inviteToken}`);
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ id: person.id, email: person.email, role: "owner" });
    expect(await rowOf(person.id)).toEqual({ workspaceId: owner.id, teamRole: "admin" });
    // The same session goes on, and the password still signs in.
    expect((await person.agent.get("/api/user")).status).toBe(200);
    const again = server.agent();
    expect(
      (await again.post("/api/login", { username: person.email, password: person.password }))
        .status,
    ).toBe(200);
    const members = await owner.agent.get("/api/team/members");
    expect(members.body.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([
      [owner.id, "owner"],
      [person.id, "admin"],
    ]);
    expect((await owner.agent.get("/api/team/invites")).body).toEqual([]);

    const twice = await person.agent.post(`/api/team/invites/${inviteToken}`);
    expect(twice.status).toBe(404);
    expect(twice.body).toEqual(INVALID);
    expect((await server.agent().get(`/api/team/invites/${inviteToken}`)).body).toEqual(INVALID);
  });

  it("is for the invited address, and for an owner-side account only", async () => {
    const { owner, client } = await startConversation(people(), { tier: "agency" });
    const address = uniqueEmail("invited");
    const { inviteToken } = await invite(owner, address);
    const stranger = await signUpOwner(people());
    const wrong = await stranger.agent.post(`/api/team/invites/${inviteToken}`);
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({
      message: `This invite is for ${address}: sign in with that address`,
    });
    const asClient = await client.agent.post(`/api/team/invites/${inviteToken}`);
    expect(asClient.status).toBe(403);
    expect(asClient.body).toEqual({ message: "Client accounts cannot join a team" });
    expect((await server.agent().post(`/api/team/invites/${inviteToken}`)).status).toBe(401);
    // Still usable by the right person.
    expect((await server.agent().get(`/api/team/invites/${inviteToken}`)).status).toBe(200);
  });

  it("refuses an account that runs a workspace of its own: clients, members or a paid plan", async () => {
    const owner = await agencyOwner();
    const withClients = await startConversation(people());
    const withMembers = await agencyOwner("Max Members");
    await teammate(withMembers);
    const paying = await signUpOwner(people(), "Paula Paying");
    await server
      .db("users")
      .where({ id: paying.id })
      .update({
        accountTier: "pro",
        subscriptionStatus: "active",
        stripeSubscriptionId: `sub_${randomUUID()}`,
      });
    for (const person of [withClients.owner, withMembers, paying]) {
      const { id, inviteToken } = await invite(owner, person.email);
      const answer = await person.agent.post(`/api/team/invites/${inviteToken}`);
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({
        message: "You already run a workspace of your own: an account can be in one workspace only",
      });
      expect((await rowOf(person.id)).workspaceId).toBe(person.id);
      await owner.agent.delete(`/api/team/invites/${id}`);
    }
  });

  it("refuses someone already in this team or another one", async () => {
    const owner = await agencyOwner();
    const member = await teammate(owner);
    // A second open invite cannot be made through the API (409 there): one written by hand.
    const token = randomUUID().replaceAll("-", "").padEnd(43, "x");
    await server.db("team_invites").insert({
      workspaceId: owner.id,
      email: member.email,
      role: "admin",
      tokenHash: createHash("sha256").update(token).digest("hex"),
      createdAt: new Date(),
      expiresAt: new Date(Date.now() + DAY_MS),
    });
    const same = await member.agent.post(`/api/team/invites/${token}`);
    expect(same.status).toBe(409);
    expect(same.body).toEqual({ message: "You are already in this team" });

    const other = await agencyOwner("Otto Other");
    const { inviteToken } = await invite(other, member.email);
    const elsewhere = await member.agent.post(`/api/team/invites/${inviteToken}`);
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body).toEqual({
      message: "You are already in another team: an account can be in one workspace only",
    });
  });

  it("is 404 for an expired, withdrawn or unknown link", async () => {
    const owner = await agencyOwner();
    const person = await signUpOwner(people());
    const expired = await invite(owner, person.email);
    await server.db("team_invites").where({ id: expired.id }).update({ expiresAt: new Date() });
    const withdrawn = await invite(owner, uniqueEmail());
    await owner.agent.delete(`/api/team/invites/${withdrawn.id}`);
    for (const token of [expired.inviteToken, withdrawn.inviteToken, "x".repeat(43), "short"]) {
      const shown = await server.agent().get(`/api/team/invites/${token}`);
      expect(shown.status).toBe(404);
      expect(shown.body).toEqual(INVALID);
      const used = await person.agent.post(`/api/team/invites/${token}`);
      expect(used.status).toBe(404);
      expect(used.body).toEqual(INVALID);
    }
  });
});

describe("PATCH /api/team/members/{id} (roles)", () => {
  it("changes a member's role; never the owner's, nor one's own", async () => {
    const owner = await agencyOwner();
    const member = await teammate(owner);
    const changed = await owner.agent.patch(`/api/team/members/${member.id}`, { role: "admin" });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      id: member.id,
      fullName: "Mia Member",
      email: member.email,
      role: "admin",
      profilePicture: null,
      joinedAt: expect.any(String),
    });
    // Now an admin: the team is theirs to manage too.
    expect((await member.agent.get("/api/team/invites")).status).toBe(200);

    const ownersRole = await member.agent.patch(`/api/team/members/${owner.id}`, {
      role: "member",
    });
    expect(ownersRole.status).toBe(403);
    expect(ownersRole.body).toEqual({ message: "The workspace's owner keeps the owner role" });
    const ownRole = await member.agent.patch(`/api/team/members/${member.id}`, {
      role: "member",
    });
    expect(ownRole.status).toBe(403);
    expect(ownRole.body).toEqual({ message: "You cannot change your own role" });
    const badRole = await owner.agent.patch(`/api/team/members/${member.id}`, { role: "owner" });
    expect(badRole.status).toBe(400);
    expect(badRole.body).toEqual({ message: "Role must be admin or member" });
    expect(await rowOf(owner.id)).toEqual({ workspaceId: owner.id, teamRole: "owner" });
  });
});

describe("DELETE /api/team/members/{id} (removal)", () => {
  it("ends the member's sessions and sockets at once; their account and what they wrote stay", async () => {
    const { owner, client } = await startConversation(people(), { tier: "agency" });
    const member = await teammate(owner);
    // What a member writes in the workspace's conversations (assignment comes later in issue 26).
    const [message] = await server
      .db("messages")
      .insert({ clientId: client.id, senderId: member.id, senderRole: "owner", content: "Hi" })
      .returning("id");
    const socket = await TestSocket.open(server.url, { cookie: member.agent.cookieHeader });

    const removed = await owner.agent.delete(`/api/team/members/${member.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true, message: "Removed from the team" });
    expect((await socket.waitForClose()).code).toBe(4401);
    expect((await member.agent.get("/api/user")).status).toBe(401);
    expect(
      await server.db("messages").where({ id: message.id }).first("senderId", "content"),
    ).toEqual({ senderId: member.id, content: "Hi" });
    expect(await rowOf(member.id)).toEqual({ workspaceId: member.id, teamRole: "owner" });
    // Back in a workspace of their own, with the same password.
    const again = server.agent();
    await again.post("/api/login", { username: member.email, password: member.password });
    const own = await again.get("/api/team/members");
    expect(own.body.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([
      [member.id, "owner"],
    ]);
    expect((await owner.agent.get("/api/team/members")).body).toHaveLength(1);
  });

  it("an admin removes members and admins, never the owner nor themselves", async () => {
    const owner = await agencyOwner();
    const admin = await teammate(owner, "admin", "Ada Admin");
    const otherAdmin = await teammate(owner, "admin", "Abe Admin");
    const ownerGone = await admin.agent.delete(`/api/team/members/${owner.id}`);
    expect(ownerGone.status).toBe(403);
    expect(ownerGone.body).toEqual({ message: "The workspace's owner cannot be removed" });
    const selfGone = await admin.agent.delete(`/api/team/members/${admin.id}`);
    expect(selfGone.status).toBe(403);
    expect(selfGone.body).toEqual({ message: "You cannot remove yourself" });
    expect((await admin.agent.delete(`/api/team/members/${otherAdmin.id}`)).status).toBe(200);
    expect((await rowOf(otherAdmin.id)).workspaceId).toBe(otherAdmin.id);
  });
});
