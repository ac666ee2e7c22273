import { randomUUID } from "node:crypto";
import { codeFrom } from "./smtp";
import type { TestAgent, TestServer } from "./server";

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
export async function signUpOwner(server: Pick<TestServer, "agent" | "smtp">, fullName = "Olivia Owner"): Promise<SignedInOwner> {
  const agent = server.agent();
  const email = uniqueEmail("owner");
  const password = "correct horse battery";
  const registered = await agent.post("/api/register", { email, password, fullName, role: "owner", accountTier: "free" });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  const code = codeFrom(await server.smtp.waitFor(email));
  const verified = await agent.post("/api/verify-email", { email, code });
  if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
  return { agent, email, password, id: verified.body.user.id };
}
