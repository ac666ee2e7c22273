import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addClient, addJoinedClient } from "../../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../../tests/support/factories";
import { type TestServer, startTestServer } from "../../../tests/support/server";

/** Billing without Stripe keys: the test-mode checkout drives the same state changes. */
describe("subscription API in test mode", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  const status = async (owner: SignedInOwner) =>
    (await owner.agent.get("/api/subscription/status")).body;

  /** The checkout page's own form: the signed session id is in it. */
  async function checkoutSession(owner: SignedInOwner, tier: "pro" | "agency", period = "monthly") {
    const answer = await owner.agent.post("/api/subscription/create-checkout", { tier, period });
    expect(answer.status).toBe(200);
    const url = new URL(answer.body.url);
    expect(url.origin + url.pathname).toBe(`${server.url}/billing/test-checkout`);
    return url.searchParams.get("session")!;
  }

  const submitCheckout = (owner: SignedInOwner, session: string, outcome: "pay" | "decline") =>
    owner.agent.request("POST", "/billing/test-checkout", {
      body: new URLSearchParams({ session, outcome }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });

  const renewal = (owner: SignedInOwner, outcome: "succeed" | "fail") =>
    owner.agent.request("POST", "/billing/test-mode/renewal", {
      body: new URLSearchParams({ outcome }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });

  async function subscribe(owner: SignedInOwner, tier: "pro" | "agency", period = "monthly") {
    const session = await checkoutSession(owner, tier, period);
    const paid = await submitCheckout(owner, session, "pay");
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe("/?subscription=success");
    return session;
  }

  it("starts every owner on free with nothing to report", async () => {
    const owner = await signUpOwner(server);
    expect(await status(owner)).toEqual({
      accountTier: "free",
      subscriptionStatus: "none",
      subscriptionEndDate: null,
      paymentFailureGraceEnd: null,
      billingPeriod: null,
      cancelAtPeriodEnd: false,
      pausedUntil: null,
      retentionDiscountUsed: false,
      testMode: true,
    });
  });

  it("shows a clearly labelled test checkout page and upgrades when it is paid", async () => {
    const owner = await signUpOwner(server);
    const session = await checkoutSession(owner, "agency", "annual");
    const page = await owner.agent.get(
      `/billing/test-checkout?session=${encodeURIComponent(session)}`,
    );
    expect(page.status).toBe(200);
    expect(page.body).toContain("TEST MODE: no real payment is taken");
    expect(page.body).toContain("Test checkout: Agency plan");
    expect(page.body).toContain("$300");

    const paid = await submitCheckout(owner, session, "pay");
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe("/?subscription=success");
    const after = await status(owner);
    expect(after).toMatchObject({
      accountTier: "agency",
      subscriptionStatus: "active",
      billingPeriod: "annual",
      paymentFailureGraceEnd: null,
    });
    const inAYear = new Date(server.clock.now());
    inAYear.setUTCFullYear(inAYear.getUTCFullYear() + 1);
    expect(
      Math.abs(new Date(after.subscriptionEndDate).getTime() - inAYear.getTime()),
    ).toBeLessThan(5_000);
    expect((await owner.agent.get("/api/user")).body.accountTier).toBe("agency");

    // Paying the same session again replays the same events: nothing changes.
    await owner.agent.post("/api/subscription/start-cancellation", { reason: "not_using" });
    await owner.agent.post("/api/subscription/complete-cancellation");
    expect((await submitCheckout(owner, session, "pay")).status).toBe(303);
    expect((await status(owner)).cancelAtPeriodEnd).toBe(true);
  });

  it("keeps the plan when the test payment is declined", async () => {
    const owner = await signUpOwner(server);
    const session = await checkoutSession(owner, "pro");
    const declined = await submitCheckout(owner, session, "decline");
    expect(declined.status).toBe(402);
    expect(declined.body).toContain("Payment Failed: your card was declined (test mode).");
    expect((await status(owner)).accountTier).toBe("free");
  });

  it("refuses a forged session or another owner's", async () => {
    const owner = await signUpOwner(server);
    const other = await signUpOwner(server);
    const session = await checkoutSession(owner, "pro");
    expect(
      (await other.agent.get(`/billing/test-checkout?session=${encodeURIComponent(session)}`))
        .status,
    ).toBe(404);
    expect((await submitCheckout(other, session, "pay")).status).toBe(404);
    const forged = `${session.split(".")[0]}.${"A".repeat(43)}`;
    expect((await submitCheckout(owner, forged, "pay")).status).toBe(404);
    expect((await status(owner)).accountTier).toBe("free");
    expect((await status(other)).accountTier).toBe("free");
  });

  it("starts the 24-hour grace period on a failed renewal and ends it on a paid one", async () => {
    const owner = await signUpOwner(server);
    await subscribe(owner, "pro");
    const failedAt = Math.floor(server.clock.now().getTime() / 1000) * 1000;
    expect((await renewal(owner, "fail")).status).toBe(303);
    const inGrace = await status(owner);
    expect(inGrace).toMatchObject({ accountTier: "pro", subscriptionStatus: "past_due" });
    const graceEnd = new Date(inGrace.paymentFailureGraceEnd).getTime();
    expect(graceEnd - failedAt).toBeGreaterThanOrEqual(24 * 3_600_000 - 1_000);
    expect(graceEnd - failedAt).toBeLessThanOrEqual(24 * 3_600_000 + 1_000);

    // A failing payment is fixed by updating the card, not by a second subscription.
    const retry = await owner.agent.post("/api/subscription/create-checkout", {
      tier: "pro",
      period: "monthly",
    });
    expect(retry).toMatchObject({
      status: 409,
      body: { message: "Your last payment failed: update your payment method first" },
    });
    const periodEnd = new Date(inGrace.subscriptionEndDate).getTime();
    expect((await renewal(owner, "succeed")).status).toBe(303);
    const paid = await status(owner);
    expect(paid).toMatchObject({
      accountTier: "pro",
      subscriptionStatus: "active",
      paymentFailureGraceEnd: null,
    });
    expect(new Date(paid.subscriptionEndDate).getTime()).toBeGreaterThan(periodEnd);
    const again = await owner.agent.post("/api/subscription/create-checkout", {
      tier: "pro",
      period: "monthly",
    });
    expect(again).toMatchObject({
      status: 409,
      body: { message: "You are already on the Pro plan" },
    });
  });

  const paymentMethodForm = (owner: SignedInOwner, outcome: "pay" | "decline") =>
    owner.agent.request("POST", "/billing/test-mode/payment-method", {
      body: new URLSearchParams({ outcome }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });

  it("updates the card on the test-mode payment page, which pays the failed invoice and ends the grace", async () => {
    const owner = await signUpOwner(server);
    expect((await owner.agent.post("/api/subscription/payment-method", {})).status).toBe(409);
    await subscribe(owner, "agency");
    expect((await renewal(owner, "fail")).status).toBe(303);
    const inGrace = await status(owner);
    expect(inGrace.paymentFailureGraceEnd).not.toBeNull();

    const answer = await owner.agent.post("/api/subscription/payment-method", {});
    expect(answer).toMatchObject({
      status: 200,
      body: { url: `${server.url}/billing/test-mode/payment-method` },
    });
    const page = await owner.agent.get("/billing/test-mode/payment-method");
    expect(page.status).toBe(200);
    expect(page.body).toContain("TEST MODE: no real payment is taken");
    expect(page.body).toContain("Your last payment of $30 for the Agency plan failed.");
    expect(page.body).toContain("Save card and pay $30 (test)");

    // A declined card: the page says so and nothing changes.
    const declined = await paymentMethodForm(owner, "decline");
    expect(declined.status).toBe(402);
    expect(declined.body).toContain("Your card was declined (test mode). Try another card.");
    expect((await status(owner)).paymentFailureGraceEnd).toBe(inGrace.paymentFailureGraceEnd);

    const paid = await paymentMethodForm(owner, "pay");
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe("/pricing?payment-method=updated");
    const after = await status(owner);
    expect(after).toMatchObject({
      accountTier: "agency",
      subscriptionStatus: "active",
      paymentFailureGraceEnd: null,
    });
    // The invoice paid was the renewal's: the period moved on.
    expect(new Date(after.subscriptionEndDate).getTime()).toBeGreaterThan(
      new Date(inGrace.subscriptionEndDate).getTime(),
    );

    // Another account's session finds no page; a client user has none either.
    const client = await addJoinedClient(server, owner);
    expect((await client.agent.get("/billing/test-mode/payment-method")).status).toBe(404);
    expect((await client.agent.post("/api/subscription/payment-method", {})).status).toBe(403);
  });

  it("only saves the card on the test-mode payment page when nothing is due", async () => {
    const owner = await signUpOwner(server);
    await subscribe(owner, "pro");
    const before = await status(owner);
    const page = await owner.agent.get("/billing/test-mode/payment-method");
    expect(page.body).toContain("Save card (test)");

    const saved = await paymentMethodForm(owner, "pay");
    expect(saved.status).toBe(303);
    // Not "updated": /pricing must not say a payment went through when none was taken.
    expect(saved.headers.get("location")).toBe("/pricing?payment-method=saved");
    expect(await status(owner)).toEqual(before);
  });

  it("changes plan in test mode on the same subscription", async () => {
    const owner = await signUpOwner(server);
    await subscribe(owner, "pro");
    const before = await status(owner);
    const up = await owner.agent.post("/api/subscription/change-plan", {
      tier: "agency",
      period: "monthly",
    });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.status).toMatchObject({
      accountTier: "agency",
      billingPeriod: "monthly",
      subscriptionEndDate: before.subscriptionEndDate,
    });
    const annual = await owner.agent.post("/api/subscription/change-plan", {
      tier: "pro",
      period: "annual",
    });
    expect(annual.body.status).toMatchObject({ accountTier: "pro", billingPeriod: "annual" });
    expect(annual.body.message).toBe(
      "You're now on the Pro plan, billed annually. The difference, less credit for your unused time, was charged today.",
    );
    expect(new Date(annual.body.status.subscriptionEndDate).getTime()).toBeGreaterThan(
      new Date(before.subscriptionEndDate).getTime() + 300 * 86_400_000,
    );
    expect((await owner.agent.get("/api/user/account-tier")).body.currentTier).toBe("pro");
  });

  it("runs the cancellation flow in test mode", async () => {
    const owner = await signUpOwner(server);
    await subscribe(owner, "pro");
    expect(
      (
        await owner.agent.post("/api/subscription/start-cancellation", {
          reason: "too_expensive",
          customReason: "ignored",
        })
      ).status,
    ).toBe(200);
    const discount = await owner.agent.post("/api/subscription/apply-discount");
    expect(discount.body).toMatchObject({
      message: "$5 off your next bill has been applied.",
      status: { retentionDiscountUsed: true },
    });
    const paused = await owner.agent.post("/api/subscription/pause-account", { pauseMonths: 3 });
    expect(paused.status).toBe(200);
    expect(paused.body.status.pausedUntil).not.toBeNull();
    expect(
      (await owner.agent.post("/api/subscription/pause-account", { pauseMonths: 1 })).status,
    ).toBe(409);
    const canceled = await owner.agent.post("/api/subscription/complete-cancellation");
    expect(canceled.body.status).toMatchObject({ accountTier: "pro", cancelAtPeriodEnd: true });
    const kept = await owner.agent.post("/api/subscription/keep-account");
    expect(kept.body.status).toMatchObject({ accountTier: "pro", cancelAtPeriodEnd: false });
  });

  it("lets a paid owner past the free limit, and short links follow the plan", async () => {
    const owner = await signUpOwner(server);
    const first = await addClient(owner);
    expect(first.response.body.shortInviteUrl).toBeNull();
    const refused = await owner.agent.post("/api/clients", {
      name: "Second",
      email: "second@example.test",
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      "Client limit reached. Upgrade your Free plan to add more clients",
    );
    expect(
      (
        await owner.agent.patch("/api/user/color-scheme", {
          primaryColor: "#ff0000",
          backgroundColor: "#ffffff",
          textColor: "#000000",
        })
      ).status,
    ).toBe(403);

    await subscribe(owner, "pro");
    const second = await addClient(owner);
    expect(second.response.body.shortInviteUrl).toMatch(/\/client\?code=/);
    expect(
      (
        await owner.agent.patch("/api/user/color-scheme", {
          primaryColor: "#ff0000",
          backgroundColor: "#ffffff",
          textColor: "#000000",
        })
      ).status,
    ).toBe(403);

    const upgraded = await owner.agent.post("/api/subscription/change-plan", {
      tier: "agency",
      period: "monthly",
    });
    expect(upgraded.status).toBe(200);
    expect(
      (
        await owner.agent.patch("/api/user/color-scheme", {
          primaryColor: "#ff0000",
          backgroundColor: "#ffffff",
          textColor: "#000000",
        })
      ).status,
    ).toBe(200);
  });

  it("lets only the signed-in owner reach billing; clients reach none of it", async () => {
    const owner = await signUpOwner(server);
    const session = await checkoutSession(owner, "pro");
    const client = await addJoinedClient(server, owner);
    const anonymous = server.agent();
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/subscription/status"],
      ["POST", "/api/subscription/create-checkout", { tier: "pro", period: "monthly" }],
      ["POST", "/api/subscription/start-cancellation", { reason: "not_using" }],
      ["POST", "/api/subscription/apply-discount"],
      ["POST", "/api/subscription/pause-account", { pauseMonths: 1 }],
      ["POST", "/api/subscription/complete-cancellation"],
      ["POST", "/api/subscription/keep-account"],
      ["POST", "/api/subscription/change-plan", { tier: "agency", period: "monthly" }],
      ["POST", "/api/subscription/payment-method", {}],
    ];
    for (const [method, path, json] of calls) {
      expect((await anonymous.request(method, path, { json })).status, `anonymous ${path}`).toBe(
        401,
      );
      expect((await client.agent.request(method, path, { json })).status, `client ${path}`).toBe(
        403,
      );
    }
    // The test checkout: a client user is not its owner (404), nobody signed in goes to sign in.
    expect(
      (await client.agent.get(`/billing/test-checkout?session=${encodeURIComponent(session)}`))
        .status,
    ).toBe(404);
    expect((await submitCheckout({ ...owner, agent: client.agent }, session, "pay")).status).toBe(
      404,
    );
    const signedOut = await anonymous.get(
      `/billing/test-checkout?session=${encodeURIComponent(session)}`,
    );
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe("/auth");
    expect((await renewal({ ...owner, agent: client.agent }, "fail")).status).toBe(404);
    // Cross-site form posts are refused like any other write.
    const crossSite = await owner.agent.request("POST", "/billing/test-checkout", {
      body: new URLSearchParams({ session, outcome: "pay" }).toString(),
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://evil.example",
      },
    });
    expect(crossSite.status).toBe(403);
    expect((await status(owner)).accountTier).toBe("free");
  });

  it("has no webhook without Stripe keys", async () => {
    const answer = await server.agent().request("POST", "/api/stripe/webhook", {
      body: JSON.stringify({ id: "evt_x", type: "invoice.paid" }),
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=x" },
    });
    expect(answer.status).toBe(404);
  });
});
