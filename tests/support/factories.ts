import { randomUUID } from "node:crypto";
import type { Tier } from "../../shared/tiers";
// conversations.ts imports this file too: only functions cross, used at call time.
import { addJoinedClient, type JoinedClient, setTier } from "./conversations";
import type { TestAgent, TestServer } from "./server";
import { codeFrom } from "./smtp";

export function uniqueEmail(label = "user"): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`;
}

export interface SignedInOwner {
  agent: TestAgent;
  email: string;
  password: string;
  id: string;
}

/** Signs up through the API, verifies with the mailed code, and returns the signed-in agent. */
export async function signUpOwner(
  server: Pick<TestServer, "agent" | "smtp">,
  fullName = "Olivia Owner",
): Promise<SignedInOwner> {
  const agent = server.agent();
  const email = uniqueEmail("owner");
  const password = "correct horse battery";
  const registered = await agent.post("/api/register", {
    email,
    password,
    fullName,
    role: "owner",
    accountTier: "free",
  });
  if (registered.status !== 201)
    throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  const code = codeFrom(await server.smtp.waitFor(email));
  const verified = await agent.post("/api/verify-email", { email, code });
  if (verified.status !== 200)
    throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
  return { agent, email, password, id: verified.body.user.id };
}

export interface StartedConversation {
  owner: SignedInOwner;
  client: JoinedClient;
  /** /api/clients/<client id>: the conversation's routes hang below it. */
  path: string;
}

/**
 * An owner (signed up and verified) with one client who has accepted the invite: both
 * signed in. `tier` puts the owner on a plan first (the free plan has room for one client).
 */
export async function startConversation(
  server: Pick<TestServer, "agent" | "smtp">,
  options: { ownerName?: string; clientName?: string; tier?: Tier } = {},
): Promise<StartedConversation> {
  const owner = await signUpOwner(server, options.ownerName);
  if (options.tier) await setTier(owner.id, options.tier);
  const client = await addJoinedClient(server, owner, {
    name: options.clientName ?? "Carla Client",
  });
  return { owner, client, path: `/api/clients/${client.id}` };
}
