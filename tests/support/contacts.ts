import { expect } from "vitest";
import { uniqueEmail } from "./factories";
import type { TestAgent, TestServer } from "./server";

export interface JoinedContact {
  id: string;
  name: string;
  email: string;
  userId: string;
  /** A browser signed in as the contact, through their own invite link. */
  agent: TestAgent;
}

/**
 * Adds a further person to a client (issue 26) as `staff` and accepts their invite in a fresh
 * browser, which is then signed in as them.
 */
export async function addJoinedContact(
  server: Pick<TestServer, "agent">,
  staff: { agent: TestAgent },
  clientId: string,
  fields: { name?: string; email?: string } = {},
): Promise<JoinedContact> {
  const name = fields.name ?? "Dora Director";
  const email = fields.email ?? uniqueEmail("contact");
  const added = await staff.agent.post(`/api/clients/${clientId}/contacts`, {
    name,
    email,
    sendInviteEmail: false,
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const agent = server.agent();
  const accepted = await agent.post(`/api/invite/${added.body.inviteToken}`);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  const me = await agent.get("/api/user");
  expect(me.body).toMatchObject({ role: "client", clientId });
  return { id: added.body.id, name, email, userId: me.body.id, agent };
}
