import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase } from "../../../tests/support/database";
import { startConversation } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import * as workspaces from "../../migrations/20261129030000_workspaces";
import * as clientAssignees from "../../migrations/20261129050000_client_assignees";

// Issue 26, first step: an owner's account is a workspace, today of one.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
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
