import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, type JoinedClient } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import { portalBootstrapSchema } from "../../../shared/schemas/portal";

/**
 * GET /api/portal/{clientId}: the client portal's first screen in one answer, the same
 * payloads as /api/user, /api/clients/{id} and /api/clients/{id}/messages; only for the
 * conversation's own client.
 */
let server: TestServer;
let owner: SignedInOwner;
let client: JoinedClient;
let otherClient: JoinedClient;

beforeAll(async () => {
  server = await startTestServer();
  owner = await signUpOwner(server);
  client = await addJoinedClient(server, owner, { name: "Carla Client" });
  const otherOwner = await signUpOwner(server, "Oscar Other");
  otherClient = await addJoinedClient(server, otherOwner, { name: "Dora Other" });
  for (const [agent, content] of [
    [owner.agent, "Here is the first draft."],
    [client.agent, "Thanks, I will look tonight."],
    [owner.agent, "Take your time."],
  ] as const) {
    expect((await agent.post(`/api/clients/${client.id}/messages`, { content })).status).toBe(201);
  }
});
afterAll(() => server?.close());

describe("GET /api/portal/{clientId}", () => {
  it("answers the client with the user, the conversation and its newest page, as the separate calls do", async () => {
    const answer = await client.agent.get(`/api/portal/${client.id}`);
    expect(answer.status).toBe(200);
    const body = portalBootstrapSchema.parse(answer.body);
    expect(body.user).toEqual((await client.agent.get("/api/user")).body);
    expect(body.client).toEqual((await client.agent.get(`/api/clients/${client.id}`)).body);
    const messages = await client.agent.get(`/api/clients/${client.id}/messages`);
    expect(body.messages).toEqual({ messages: messages.body, hasMore: false });
    expect(body.messages.messages.map((m) => m.content)).toEqual([
      "Here is the first draft.",
      "Thanks, I will look tonight.",
      "Take your time.",
    ]);
    expect(body.client.owner.fullName).toBe("Olivia Owner");
    expect(answer.headers.get("cache-control")).toBe("no-store");
  });

  it("says whether older messages exist beyond the first page", async () => {
    const busy = await addJoinedClient(server, await signUpOwner(server, "Bea Busy"));
    for (let i = 1; i <= 51; i += 1) {
      expect(
        (await busy.agent.post(`/api/clients/${busy.id}/messages`, { content: `Note ${i}` }))
          .status,
      ).toBe(201);
    }
    const body = portalBootstrapSchema.parse((await busy.agent.get(`/api/portal/${busy.id}`)).body);
    expect(body.messages.hasMore).toBe(true);
    expect(body.messages.messages).toHaveLength(50);
    expect(body.messages.messages.at(-1)?.content).toBe("Note 51");
  });

  it("answers 401 signed out", async () => {
    const answer = await server.agent().get(`/api/portal/${client.id}`);
    expect(answer.status).toBe(401);
  });

  it("answers 404 for another client's conversation, an unknown id and a malformed one", async () => {
    for (const id of [otherClient.id, "9b2f7a3c-1d4e-4f5a-8b6c-7d8e9f0a1b2c", "not-an-id"]) {
      const answer = await client.agent.get(`/api/portal/${id}`);
      expect(answer.status, id).toBe(404);
      expect(answer.body).toEqual({ message: "Client not found" });
    }
  });

  it("answers the conversation's owner 403 (the dashboard is theirs) and another owner 404", async () => {
    const own = await owner.agent.get(`/api/portal/${client.id}`);
    expect(own.status).toBe(403);
    expect(own.body).toEqual({ message: "The client portal is for the client" });
    expect((await owner.agent.get(`/api/portal/${otherClient.id}`)).status).toBe(404);
  });
});
