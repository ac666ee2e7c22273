import { expect } from "vitest";
import { User } from "../../server/models";
import type { Tier } from "../../shared/tiers";
import { type SignedInOwner, uniqueEmail } from "./factories";
import { TestAgent, type TestResponse, type TestServer } from "./server";

export const setTier = (id: string, accountTier: Tier) =>
  User.query().patch({ accountTier }).where("id", id);

export interface AddedClient {
  id: string;
  name: string;
  email: string;
  inviteToken: string;
  response: TestResponse;
}

/** Adds a client through the API (the owner must have room on their plan). */
export async function addClient(
  owner: SignedInOwner,
  fields: { name?: string; email?: string; sendInviteEmail?: boolean; language?: string } = {},
): Promise<AddedClient> {
  const name = fields.name ?? "Carla Client";
  const email = fields.email ?? uniqueEmail("client");
  const response = await owner.agent.post("/api/clients", { name, email, ...fields });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return { id: response.body.id, name, email, inviteToken: response.body.inviteToken, response };
}

export interface JoinedClient extends AddedClient {
  agent: TestAgent;
  userId: string;
}

/** Adds a client and accepts its invite in a fresh browser, which is then signed in as the client. */
export async function addJoinedClient(
  server: Pick<TestServer, "agent">,
  owner: SignedInOwner,
  fields: { name?: string; email?: string } = {},
): Promise<JoinedClient> {
  const added = await addClient(owner, fields);
  const agent = server.agent();
  const accepted = await agent.post(`/api/invite/${added.inviteToken}`);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  const me = await agent.get("/api/user");
  expect(me.body).toMatchObject({ role: "client", clientId: added.id });
  return { ...added, agent, userId: me.body.id };
}

/** A caller from its own IP address (the server must run with TRUST_PROXY=true). */
export class AgentFromIp extends TestAgent {
  constructor(
    baseUrl: string,
    readonly ip: string,
  ) {
    super(baseUrl);
  }

  override request<T = unknown>(
    method: string,
    urlPath: string,
    init: { json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
  ): Promise<TestResponse<T>> {
    return super.request<T>(method, urlPath, {
      ...init,
      headers: { "x-forwarded-for": this.ip, ...init.headers },
    });
  }
}

let ipCounter = 0;
/** A fresh caller address for rate-limit tests. */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}
