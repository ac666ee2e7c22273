import { expect } from "vitest";
import type { SignedInOwner } from "./factories";
import type { TestServer } from "./server";

/**
 * A paid checkout in test mode (no Stripe keys): the checkout through the API, then the test
 * checkout page's own form submitted with "pay", as the owner's browser would.
 */
export async function subscribeInTestMode(
  server: Pick<TestServer, "url">,
  owner: SignedInOwner,
  tier: "pro" | "agency",
  period: "monthly" | "annual" = "monthly",
): Promise<void> {
  const checkout = await owner.agent.post("/api/subscription/create-checkout", { tier, period });
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
  const url = new URL(checkout.body.url);
  expect(url.origin + url.pathname).toBe(`${server.url}/billing/test-checkout`);
  const paid = await owner.agent.request("POST", "/billing/test-checkout", {
    body: new URLSearchParams({ session: url.searchParams.get("session")!, outcome: "pay" }),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  expect(paid.status).toBe(303);
}

/** A renewal as test mode's simulator page submits it. */
export const simulateRenewal = (owner: SignedInOwner, outcome: "succeed" | "fail") =>
  owner.agent.request("POST", "/billing/test-mode/renewal", {
    body: new URLSearchParams({ outcome }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
