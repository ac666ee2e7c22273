import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../tests/support/clock";
import { addClient } from "../../tests/support/conversations";
import { testDatabase } from "../../tests/support/database";
import { type SignedInOwner, signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import type { Database } from "../db/connection";

/** The billing job in test mode: grace expiry and the end of a cancelled period. */
describe("billing job in test mode", () => {
  let server: TestServer;
  let db: Database;
  const clock = () => server.clock as TestClock;

  beforeAll(async () => {
    // The job acts on every due account: this file moves the clock in a database of its own.
    db = await testDatabase({ isolated: true });
    server = await startTestServer({ db });
  });
  afterAll(async () => {
    await server?.close();
    await db?.destroy();
  });

  const status = async (owner: SignedInOwner) =>
    (await owner.agent.get("/api/subscription/status")).body;
  const form = (owner: SignedInOwner, path: string, fields: Record<string, string>) =>
    owner.agent.request("POST", path, {
      body: new URLSearchParams(fields).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });

  async function subscribe(owner: SignedInOwner, tier: "pro" | "agency") {
    const checkout = await owner.agent.post("/api/subscription/create-checkout", {
      tier,
      period: "monthly",
    });
    const session = new URL(checkout.body.url).searchParams.get("session")!;
    expect((await form(owner, "/billing/test-checkout", { session, outcome: "pay" })).status).toBe(
      303,
    );
  }

  it("downgrades after an unpaid grace period and ends a cancelled subscription at its period end", async () => {
    const unpaid = await signUpOwner(server);
    await subscribe(unpaid, "agency");
    await addClient(unpaid);
    await addClient(unpaid);
    expect((await form(unpaid, "/billing/test-mode/renewal", { outcome: "fail" })).status).toBe(
      303,
    );

    const leaving = await signUpOwner(server);
    await subscribe(leaving, "pro");
    await leaving.agent.post("/api/subscription/start-cancellation", { reason: "no_longer_need" });
    await leaving.agent.post("/api/subscription/complete-cancellation");
    const { subscriptionEndDate } = await status(leaving);

    clock().advanceMinutes(23 * 60 + 59);
    await server.jobs.runOnce("billing-grace-expiry");
    expect((await status(unpaid)).accountTier).toBe("agency");

    clock().advanceMinutes(2);
    await server.jobs.runOnce("billing-grace-expiry");
    expect(await status(unpaid)).toMatchObject({
      accountTier: "free",
      subscriptionStatus: "canceled",
      paymentFailureGraceEnd: null,
    });
    expect((await unpaid.agent.get("/api/clients")).body).toHaveLength(2);
    expect(
      (await unpaid.agent.post("/api/clients", { name: "Third", email: "third@example.test" }))
        .status,
    ).toBe(403);
    // Paid features stop with the plan.
    expect(
      (
        await unpaid.agent.patch("/api/user/color-scheme", {
          primaryColor: "#123456",
          backgroundColor: "#ffffff",
          textColor: "#000000",
        })
      ).status,
    ).toBe(403);
    expect((await status(leaving)).accountTier).toBe("pro");

    const untilEnd = new Date(subscriptionEndDate).getTime() - server.clock.now().getTime();
    clock().advance(untilEnd + 60_000);
    await server.jobs.runOnce("billing-grace-expiry");
    expect(await status(leaving)).toMatchObject({
      accountTier: "free",
      subscriptionStatus: "canceled",
      cancelAtPeriodEnd: false,
    });
  });

  it("emails a failed renewal and its recovery in test mode too", async () => {
    const owner = await signUpOwner(server);
    await subscribe(owner, "pro");
    expect((await form(owner, "/billing/test-mode/renewal", { outcome: "fail" })).status).toBe(303);
    expect((await form(owner, "/billing/test-mode/renewal", { outcome: "succeed" })).status).toBe(
      303,
    );
    await server.mailSettled();
    const subjects = server.smtp
      .mailsTo(owner.email)
      .map((mail) => mail.subject)
      .filter((subject) => /payment/i.test(subject));
    expect(subjects).toEqual([
      expect.stringMatching(/^Your ClientDesk payment failed: update it by /),
      "Payment received: your ClientDesk Pro plan continues",
    ]);
    const receipt = server.smtp.mailsTo(owner.email).at(-1);
    expect(receipt?.text).toContain("Amount paid: $10.00");
  });
});
