import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addJoinedClient, type JoinedClient, setTier } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner, uniqueEmail } from "../../../tests/support/factories";
import { type TestAgent, type TestServer, startTestServer } from "../../../tests/support/server";
import { Client, Message } from "../../models";

/**
 * Every route of clients, invites and conversations x {owner A, owner B, client A1, client A2
 * (A's other client), client B1, anonymous}. The target is A1's conversation.
 */
const ACTORS = ["anon", "B", "A2", "B1", "A1", "A"] as const;
type Actor = (typeof ACTORS)[number];

let server: TestServer;
let A: SignedInOwner;
let B: SignedInOwner;
let A1: JoinedClient;
let A2: JoinedClient;
let B1: JoinedClient;
let agents: Record<Actor, TestAgent>;
let messageOfA1: string;
let messageOfB1: string;
const secretName = `Secret ${randomUUID().slice(0, 8)}`;
const secretText = `private words ${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  server = await startTestServer();
  A = await signUpOwner(server, "Alice Owner");
  B = await signUpOwner(server, "Bob Owner");
  await setTier(A.id, "pro");
  A1 = await addJoinedClient(server, A, { name: secretName });
  A2 = await addJoinedClient(server, A, { name: "Other Client Of Alice" });
  B1 = await addJoinedClient(server, B, { name: "Client Of Bob" });
  messageOfA1 = (await A.agent.post(`/api/clients/${A1.id}/messages`, { content: secretText })).body
    .id;
  messageOfB1 = (await B1.agent.post(`/api/clients/${B1.id}/messages`, { content: "hello bob" }))
    .body.id;
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

interface Route {
  method: string;
  path: () => string;
  body?: (actor: Actor) => unknown;
  expect: Record<Actor, number>;
  /** Runs once every actor had its turn. */
  after?: () => Promise<void>;
}

/** A re-issued invite signs A1 out everywhere: A1 comes back by a mailed sign-in link. */
async function signA1BackIn(): Promise<void> {
  expect((await A1.agent.get("/api/user")).status).toBe(401);
  const earlier = new Set(server.smtp.mailsTo(A1.email));
  await server.agent().post("/api/client-sign-in-link", { email: A1.email });
  const mail = await server.smtp.waitFor(A1.email, (received) => !earlier.has(received));
  const token = /\/client\/sign-in\?token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  expect((await A1.agent.post("/api/client-sign-in", { token })).status).toBe(200);
}

const members = (ok: number): Record<Actor, number> => ({
  anon: 401,
  B: 404,
  A2: 404,
  B1: 404,
  A1: ok,
  A: ok,
});
const ownerOnly = (ok: number): Record<Actor, number> => ({
  anon: 401,
  B: 404,
  A2: 404,
  B1: 404,
  A1: 403,
  A: ok,
});
const everyone = (status: number): Record<Actor, number> => ({
  anon: status,
  B: status,
  A2: status,
  B1: status,
  A1: status,
  A: status,
});

const routes: Route[] = [
  {
    method: "GET",
    path: () => "/api/clients",
    expect: { anon: 401, B: 200, A2: 403, B1: 403, A1: 403, A: 200 },
  },
  {
    method: "POST",
    path: () => "/api/clients",
    body: () => ({ name: "New Client", email: uniqueEmail() }),
    // B is on the free plan and has a client already.
    expect: { anon: 401, B: 403, A2: 403, B1: 403, A1: 403, A: 201 },
  },
  { method: "GET", path: () => `/api/clients/${A1.id}`, expect: members(200) },
  {
    method: "POST",
    path: () => `/api/clients/${A1.id}/invite`,
    expect: ownerOnly(200),
    after: signA1BackIn,
  },
  // After the re-issue above, A1 has a live token for the short link.
  { method: "POST", path: () => `/api/clients/${A1.id}/short-link`, expect: ownerOnly(200) },
  {
    method: "PATCH",
    path: () => `/api/clients/${A1.id}/notification-settings`,
    body: () => ({ emailNotificationDelay: 7 }),
    expect: { anon: 401, B: 404, A2: 404, B1: 404, A1: 200, A: 403 },
  },
  { method: "GET", path: () => `/api/clients/${A1.id}/messages`, expect: members(200) },
  {
    method: "POST",
    path: () => `/api/clients/${A1.id}/messages`,
    body: (actor) => ({ content: `from ${actor}` }),
    expect: members(201),
  },
  {
    method: "POST",
    path: () => `/api/clients/${A1.id}/read`,
    body: () => ({ messageId: messageOfA1 }),
    expect: members(200),
  },
  { method: "GET", path: () => "/api/short-link/ZZZZZZZZ", expect: everyone(404) },
  // The token the client joined with was replaced above: "already used" (410), to everyone alike.
  { method: "POST", path: () => `/api/invite/${A1.inviteToken}`, expect: everyone(410) },
  {
    method: "POST",
    path: () => "/api/client-sign-in-link",
    body: () => ({ email: uniqueEmail() }),
    expect: everyone(200),
  },
  {
    method: "POST",
    path: () => "/api/client-sign-in",
    body: () => ({ token: "z".repeat(43) }),
    expect: everyone(400),
  },
  // Last: A deletes A1.
  { method: "DELETE", path: () => `/api/clients/${A1.id}`, expect: ownerOnly(200) },
];

describe("authorization matrix", () => {
  it("answers every route with the expected status and leaks nothing", async () => {
    const seen: string[] = [];
    for (const route of routes) {
      for (const actor of ACTORS) {
        const label = `${actor} ${route.method} ${route.path()}`;
        const response = await agents[actor].request(route.method, route.path(), {
          json: route.body?.(actor),
        });
        seen.push(`${label} -> ${response.status}`);
        expect(response.status, label).toBe(route.expect[actor]);
        if (response.status >= 400) {
          expect(
            Object.keys(response.body).filter((key) => key !== "success" && key !== "reason"),
            label,
          ).toEqual(["message"]);
        }
        if (!["A", "A1"].includes(actor)) {
          const text = JSON.stringify(response.body);
          for (const secret of [secretName, A1.email, secretText])
            expect(text, label).not.toContain(secret);
        }
      }
      await route.after?.();
    }
    expect(seen).toHaveLength(routes.length * ACTORS.length);
  });

  it("left the conversation as only its members changed it", async () => {
    // A1 was deleted by A at the end of the matrix; its messages went with it.
    expect(await Client.query().findById(A1.id)).toBeUndefined();
    expect(await Message.query().where("clientId", A1.id).resultSize()).toBe(0);
    expect((await A1.agent.get("/api/user")).status).toBe(401);
    // The others are untouched.
    expect((await A2.agent.get(`/api/clients/${A2.id}`)).status).toBe(200);
    expect((await B1.agent.get(`/api/clients/${B1.id}/messages`)).body).toHaveLength(1);
    expect((await B.agent.get("/api/clients")).body.map((c: { id: string }) => c.id)).toEqual([
      B1.id,
    ]);
  });
});

describe("ids that are not the caller's", () => {
  it("answer 404 for malformed and unknown ids in paths, never 500", async () => {
    const ids = [
      "not-a-uuid",
      "123",
      "00000000-0000-0000-0000-000000000000",
      randomUUID(),
      `${A2.id}x`,
      "%27%3B--",
    ];
    for (const id of ids) {
      for (const [method, suffix, body] of [
        ["GET", "", undefined],
        ["DELETE", "", undefined],
        ["POST", "/invite", undefined],
        ["POST", "/short-link", undefined],
        ["PATCH", "/notification-settings", { emailNotificationDelay: 9 }],
        ["GET", "/messages", undefined],
        ["POST", "/messages", { content: "hello" }],
        ["POST", "/read", { messageId: messageOfB1 }],
      ] as const) {
        for (const agent of [A.agent, A2.agent]) {
          const response = await agent.request(method, `/api/clients/${id}${suffix}`, {
            json: body,
          });
          expect(response.status, `${method} ${id}${suffix}`).toBe(404);
          expect(Object.keys(response.body)).toEqual(["message"]);
        }
      }
    }
  });

  it("answer 404 for another conversation's ids in bodies and queries", async () => {
    const read = await A.agent.post(`/api/clients/${A2.id}/read`, { messageId: messageOfB1 });
    expect(read.status).toBe(404);
    const page = await A2.agent.get(`/api/clients/${A2.id}/messages?before=${messageOfB1}`);
    expect(page.status).toBe(404);
    const catchUp = await A2.agent.get(`/api/clients/${A2.id}/messages?after=${messageOfB1}`);
    expect(catchUp.status).toBe(404);
    expect(JSON.stringify([read.body, page.body, catchUp.body])).not.toContain("hello bob");
    // Bob's conversation is unchanged.
    expect((await B.agent.get("/api/clients")).body[0]).toMatchObject({
      unreadCount: 1,
      awaitingReply: true,
    });
  });
});
