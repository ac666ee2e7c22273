import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addClient,
  addJoinedClient,
  type JoinedClient,
  setTier,
} from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { dashboardBootstrapSchema } from "../../../shared/schemas/dashboard";

/**
 * GET /api/dashboard[?client={id}]: the owner's first screen in one answer, the same payloads
 * as /api/user, /api/clients, /api/billing-mode, /api/user/account-tier,
 * /api/subscription/status, and for the owner's own client /api/clients/{id} and
 * /api/clients/{id}/messages. Never another account's conversation.
 */
let server: TestServer;
let owner: SignedInOwner;
let client: JoinedClient;
let otherClient: JoinedClient;

beforeAll(async () => {
  server = await startTestServer();
  owner = await signUpOwner(server);
  // Two clients: more than the free plan's one.
  await setTier(owner.id, "pro");
  client = await addJoinedClient(server, owner, { name: "Carla Client" });
  await addClient(owner, { name: "Pete Pending" });
  const otherOwner = await signUpOwner(server, "Oscar Other");
  otherClient = await addJoinedClient(server, otherOwner, { name: "Dora Other" });
  for (const [agent, content] of [
    [owner.agent, "Here is the first draft."],
    [client.agent, "Thanks, I will look tonight."],
    [owner.agent, "Take your time."],
  ] as const) {
    expect((await agent.post(`/api/clients/${client.id}/messages`, { content })).status).toBe(201);
  }
  expect(
    (
      await otherOwner.agent.post(`/api/clients/${otherClient.id}/messages`, {
        content: "Only for Dora",
      })
    ).status,
  ).toBe(201);
});
afterAll(() => server?.close());

/** What the separate routes answer the owner, as the first screen asked for them before. */
async function separateAnswers() {
  const [user, clients, billingMode, accountTier, subscriptionStatus, team] = await Promise.all(
    [
      "/api/user",
      "/api/clients",
      "/api/billing-mode",
      "/api/user/account-tier",
      "/api/subscription/status",
      "/api/team/members",
    ].map(async (path) => {
      const answer = await owner.agent.get(path);
      expect(answer.status, path).toBe(200);
      return answer.body;
    }),
  );
  return { user, clients, billingMode, accountTier, subscriptionStatus, team };
}

describe("GET /api/dashboard", () => {
  it("answers the owner with the user, the client list, plan and billing, as the separate calls do", async () => {
    const answer = await owner.agent.get("/api/dashboard");
    expect(answer.status).toBe(200);
    const body = dashboardBootstrapSchema.parse(answer.body);
    expect(body).toEqual({ ...(await separateAnswers()), conversation: null });
    expect(body.clients.map((c) => c.name).sort()).toEqual(["Carla Client", "Pete Pending"]);
    expect(body.accountTier.clientCount).toBe(2);
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });

  it("with ?client= one of the owner's clients, adds that conversation and its newest page", async () => {
    const answer = await owner.agent.get(`/api/dashboard?client=${client.id}`);
    expect(answer.status).toBe(200);
    const body = dashboardBootstrapSchema.parse(answer.body);
    const messages = await owner.agent.get(`/api/clients/${client.id}/messages`);
    expect(body).toEqual({
      ...(await separateAnswers()),
      conversation: {
        client: (await owner.agent.get(`/api/clients/${client.id}`)).body,
        messages: { messages: messages.body, hasMore: false },
      },
    });
    expect(body.conversation?.messages.messages.map((m) => m.content)).toEqual([
      "Here is the first draft.",
      "Thanks, I will look tonight.",
      "Take your time.",
    ]);
  });

  it("says whether older messages exist beyond the first page", async () => {
    const busyOwner = await signUpOwner(server, "Bea Busy");
    const busy = await addJoinedClient(server, busyOwner);
    for (let i = 1; i <= 51; i += 1) {
      expect(
        (await busyOwner.agent.post(`/api/clients/${busy.id}/messages`, { content: `Note ${i}` }))
          .status,
      ).toBe(201);
    }
    const body = dashboardBootstrapSchema.parse(
      (await busyOwner.agent.get(`/api/dashboard?client=${busy.id}`)).body,
    );
    expect(body.conversation?.messages.hasMore).toBe(true);
    expect(body.conversation?.messages.messages).toHaveLength(50);
    expect(body.conversation?.messages.messages.at(-1)?.content).toBe("Note 51");
  });

  it("gives no conversation for another owner's client, an unknown id or a malformed one", async () => {
    const own = (await owner.agent.get("/api/dashboard")).body;
    for (const id of [otherClient.id, "9b2f7a3c-1d4e-4f5a-8b6c-7d8e9f0a1b2c", "not-an-id", ""]) {
      const answer = await owner.agent.get(`/api/dashboard?client=${encodeURIComponent(id)}`);
      expect(answer.status, id).toBe(200);
      const body = dashboardBootstrapSchema.parse(answer.body);
      expect(body, id).toEqual(own);
      expect(JSON.stringify(answer.body), id).not.toMatch(/Dora|Only for Dora|Oscar/);
    }
  });

  it("refuses a query it does not know (400)", async () => {
    const answer = await owner.agent.get(`/api/dashboard?clientId=${client.id}`);
    expect(answer.status).toBe(400);
  });

  it("answers a client user 403 (the portal is theirs), even for their own conversation", async () => {
    for (const path of ["/api/dashboard", `/api/dashboard?client=${client.id}`]) {
      const answer = await client.agent.get(path);
      expect(answer.status, path).toBe(403);
      expect(answer.body).toEqual({ message: "Only owners can do that" });
    }
  });

  it("answers 401 signed out", async () => {
    for (const path of ["/api/dashboard", `/api/dashboard?client=${client.id}`]) {
      expect((await server.agent().get(path)).status, path).toBe(401);
    }
  });
});
