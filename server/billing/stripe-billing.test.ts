import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/connection";
import { User } from "../models";
import { addClient } from "../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../tests/support/factories";
import { testDatabase } from "../../tests/support/database";
import { type TestServer, startTestServer } from "../../tests/support/server";
import type { TestClock } from "../../tests/support/clock";
import { subscribeWithStripe, subscriptionInvoice } from "../../tests/support/stripe-checkout";
import {
  deliverEvent,
  type StandInSubscription,
  StripeStandIn,
  stripeEnv,
  stripeEvent,
} from "../../tests/support/stripe-stand-in";

/** Billing through the real stripe SDK, against a local stand-in for Stripe's API. */
describe("billing with Stripe", () => {
  let server: TestServer;
  let standIn: StripeStandIn;
  let db: Database;
  const clock = () => server.clock as TestClock;

  beforeAll(async () => {
    standIn = new StripeStandIn();
    await standIn.start();
    // This file moves the clock and runs the grace job: it gets a database of its own.
    db = await testDatabase({ isolated: true });
    server = await startTestServer({ db, env: stripeEnv(standIn) });
  });
  afterAll(async () => {
    await server?.close();
    await db?.destroy();
    await standIn?.stop();
  });

  const now = () => server.clock.now();
  const secondsFromNow = (seconds: number) => new Date(now().getTime() + seconds * 1000);
  const status = async (owner: SignedInOwner) =>
    (await owner.agent.get("/api/subscription/status")).body;

  /** Checkout through the API, then the events Stripe sends once it is paid. */
  const subscribe = (
    owner: SignedInOwner,
    tier: "pro" | "agency",
    period: "monthly" | "annual" = "monthly",
  ) =>
    subscribeWithStripe(server, standIn, owner, {
      tier,
      period,
      periodEnd: secondsFromNow(30 * 86_400),
    });

  const invoiceFor = (subscription: StandInSubscription) => subscriptionInvoice(subscription);

  it("creates a Checkout Session with the plan's price from shared/tiers.ts", async () => {
    const owner = await signUpOwner(server);
    const answer = await owner.agent.post("/api/subscription/create-checkout", {
      tier: "agency",
      period: "annual",
    });
    expect(answer.status).toBe(200);
    expect(answer.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);

    const [customer] = standIn.requests.filter(
      (request) => request.path === "/v1/customers" && request.params.email === owner.email,
    );
    expect(customer?.authorization).toBe("Bearer sk_test_stand_in");
    const session = standIn.requestsTo("POST", "/v1/checkout/sessions").at(-1)!;
    expect(session.params).toMatchObject({
      mode: "subscription",
      client_reference_id: owner.id,
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][unit_amount]": "30000",
      "line_items[0][price_data][recurring][interval]": "year",
      "metadata[tier]": "agency",
      "subscription_data[metadata][userId]": owner.id,
      success_url: `${server.url}/?subscription=success`,
      cancel_url: `${server.url}/pricing`,
    });
    // Nothing is paid yet.
    expect(await status(owner)).toMatchObject({ accountTier: "free", subscriptionStatus: "none" });
  });

  it("replaces a customer id left by test mode with a real Stripe customer", async () => {
    const owner = await signUpOwner(server);
    await User.query().findById(owner.id).patch({ stripeCustomerId: "cus_test_leftover" });
    const answer = await owner.agent.post("/api/subscription/create-checkout", {
      tier: "pro",
      period: "monthly",
    });
    expect(answer.status).toBe(200);
    const stored = await User.query().findById(owner.id);
    expect(stored?.stripeCustomerId).toMatch(/^cus_/);
    expect(stored?.stripeCustomerId).not.toBe("cus_test_leftover");
    const session = standIn.requestsTo("POST", "/v1/checkout/sessions").at(-1)!;
    expect(session.params.customer).toBe(stored?.stripeCustomerId);
  });

  it("refuses a checkout for the free tier or an unknown period", async () => {
    const owner = await signUpOwner(server);
    expect(
      (
        await owner.agent.post("/api/subscription/create-checkout", {
          tier: "free",
          period: "monthly",
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await owner.agent.post("/api/subscription/create-checkout", {
          tier: "pro",
          period: "weekly",
        })
      ).status,
    ).toBe(400);
  });

  it("upgrades when the paid checkout's events arrive, and keeps the period end", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "agency", "annual");
    const end = new Date(subscription.items.data[0]!.current_period_end * 1000).toISOString();
    expect(await status(owner)).toEqual({
      accountTier: "agency",
      subscriptionStatus: "active",
      subscriptionEndDate: end,
      paymentFailureGraceEnd: null,
      billingPeriod: "annual",
      cancelAtPeriodEnd: false,
      pausedUntil: null,
      retentionDiscountUsed: false,
      testMode: false,
    });
    expect((await owner.agent.get("/api/user/account-tier")).body).toMatchObject({
      currentTier: "agency",
      canCreateMore: true,
    });
  });

  it("answers 400 and changes nothing for a bad or missing signature or a stale timestamp", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "pro");
    const event = stripeEvent("invoice.payment_failed", invoiceFor(subscription), now());
    const before = await status(owner);

    const wrongSecret = await deliverEvent(owner.agent, event, { secret: "whsec_someone_else" });
    const missing = await deliverEvent(owner.agent, event, { signature: null });
    const garbage = await deliverEvent(owner.agent, event, { signature: "t=1,v1=abc" });
    const stale = await deliverEvent(owner.agent, event, {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    for (const answer of [wrongSecret, missing, garbage, stale]) {
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(/signature/i);
    }
    expect(await status(owner)).toEqual(before);
    // The refused deliveries were not recorded: the properly signed one still counts.
    expect((await deliverEvent(owner.agent, event)).body).toEqual({
      received: true,
      duplicate: false,
    });
    expect((await status(owner)).paymentFailureGraceEnd).not.toBeNull();
  });

  it("processes a replayed event once", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "pro");
    const at = now();
    const failed = stripeEvent("invoice.payment_failed", invoiceFor(subscription), at);
    await deliverEvent(owner.agent, failed);
    expect((await status(owner)).paymentFailureGraceEnd).not.toBeNull();
    await deliverEvent(owner.agent, stripeEvent("invoice.paid", invoiceFor(subscription), at));
    expect((await status(owner)).paymentFailureGraceEnd).toBeNull();

    const replay = await deliverEvent(owner.agent, failed);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ received: true, duplicate: true });
    expect(await status(owner)).toMatchObject({
      subscriptionStatus: "active",
      paymentFailureGraceEnd: null,
    });
  });

  it("ends in the newest state when events arrive out of order", async () => {
    const owner = await signUpOwner(server);
    const user = () => User.query(server.db).findById(owner.id).throwIfNotFound();
    const pro = await subscribe(owner, "pro");
    const customer = (await user()).stripeCustomerId!;
    // A new agency subscription: its own events come before the checkout's.
    const metadata = { userId: owner.id, tier: "agency", period: "monthly" };
    const agency = standIn.addSubscription({
      customer,
      metadata,
      periodEnd: Math.floor(secondsFromNow(40 * 86_400).getTime() / 1000),
    });
    const scheduledCancel = {
      ...agency,
      cancel_at_period_end: true,
      cancel_at: agency.items.data[0]!.current_period_end,
    };
    await deliverEvent(
      owner.agent,
      stripeEvent("customer.subscription.updated", scheduledCancel, secondsFromNow(20)),
    );
    await deliverEvent(
      owner.agent,
      stripeEvent("customer.subscription.created", agency, secondsFromNow(10)),
    );
    await deliverEvent(
      owner.agent,
      stripeEvent(
        "checkout.session.completed",
        {
          id: "cs_late",
          mode: "subscription",
          customer,
          subscription: agency.id,
          client_reference_id: owner.id,
          payment_status: "paid",
          metadata,
        },
        secondsFromNow(10),
      ),
    );
    expect(await status(owner)).toMatchObject({
      accountTier: "agency",
      subscriptionStatus: "active",
      cancelAtPeriodEnd: true,
    });
    // The pro subscription it replaced was cancelled at Stripe; its deletion changes nothing here.
    expect(standIn.requestsTo("DELETE", `/v1/subscriptions/${pro.id}`)).toHaveLength(1);
    await deliverEvent(
      owner.agent,
      stripeEvent(
        "customer.subscription.deleted",
        { ...pro, status: "canceled" },
        secondsFromNow(25),
      ),
    );
    expect((await status(owner)).accountTier).toBe("agency");

    // Deleted at +40 s, then a payment at +30 s arrives late: still free.
    await deliverEvent(
      owner.agent,
      stripeEvent(
        "customer.subscription.deleted",
        { ...agency, status: "canceled" },
        secondsFromNow(40),
      ),
    );
    await deliverEvent(
      owner.agent,
      stripeEvent("invoice.paid", invoiceFor(agency), secondsFromNow(30)),
    );
    await deliverEvent(
      owner.agent,
      stripeEvent("customer.subscription.updated", agency, secondsFromNow(30)),
    );
    expect(await status(owner)).toMatchObject({
      accountTier: "free",
      subscriptionStatus: "canceled",
      paymentFailureGraceEnd: null,
    });
  });

  it("runs the cancellation flow against Stripe: discount, pause, cancel at period end, keep", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "agency");
    const path = `/v1/subscriptions/${subscription.id}`;

    const noReason = await owner.agent.post("/api/subscription/start-cancellation", {});
    expect(noReason).toMatchObject({ status: 400, body: { message: "Please select a reason" } });
    const noDetails = await owner.agent.post("/api/subscription/start-cancellation", {
      reason: "other",
      customReason: "  ",
    });
    expect(noDetails).toMatchObject({ status: 400, body: { message: "Please provide details" } });
    const started = await owner.agent.post("/api/subscription/start-cancellation", {
      reason: "other",
      customReason: "Closing the agency",
    });
    expect(started).toMatchObject({ status: 200, body: { success: true } });
    expect((await User.query(server.db).findById(owner.id))!).toMatchObject({
      cancellationReason: "other",
      cancellationDetails: "Closing the agency",
    });

    const discount = await owner.agent.post("/api/subscription/apply-discount");
    expect(discount).toMatchObject({
      status: 200,
      body: { message: "$20 off your next bill has been applied." },
    });
    expect(standIn.requestsTo("POST", "/v1/coupons").at(-1)!.params).toMatchObject({
      amount_off: "2000",
      currency: "usd",
      duration: "once",
    });
    expect(standIn.requestsTo("POST", path).at(-1)!.params["discounts[0][coupon]"]).toMatch(
      /^coupon_/,
    );
    expect((await owner.agent.post("/api/subscription/apply-discount")).status).toBe(409);

    const badPause = await owner.agent.post("/api/subscription/pause-account", { pauseMonths: 4 });
    expect(badPause.status).toBe(400);
    const paused = await owner.agent.post("/api/subscription/pause-account", { pauseMonths: 2 });
    expect(paused.status).toBe(200);
    const pauseCall = standIn.requestsTo("POST", path).at(-1)!.params;
    expect(pauseCall["pause_collection[behavior]"]).toBe("void");
    const resumesAt = new Date(Number(pauseCall["pause_collection[resumes_at]"]) * 1000);
    const inTwoMonths = new Date(now());
    inTwoMonths.setUTCMonth(inTwoMonths.getUTCMonth() + 2);
    expect(Math.abs(resumesAt.getTime() - inTwoMonths.getTime())).toBeLessThan(5_000);
    expect(paused.body.status).toMatchObject({
      accountTier: "agency",
      pausedUntil: resumesAt.toISOString(),
    });

    const canceled = await owner.agent.post("/api/subscription/complete-cancellation");
    expect(canceled.status).toBe(200);
    expect(standIn.requestsTo("POST", path).at(-1)!.params).toMatchObject({
      cancel_at_period_end: "true",
    });
    expect(canceled.body.status).toMatchObject({ accountTier: "agency", cancelAtPeriodEnd: true });
    expect(canceled.body.message).toMatch(
      /^Your subscription is canceled\. You keep your plan until /,
    );

    const kept = await owner.agent.post("/api/subscription/keep-account");
    expect(kept).toMatchObject({ status: 200, body: { message: "We're glad you're staying!" } });
    expect(standIn.requestsTo("POST", path).at(-1)!.params).toMatchObject({
      cancel_at_period_end: "false",
    });
    expect(kept.body.status).toMatchObject({ accountTier: "agency", cancelAtPeriodEnd: false });
  });

  it("gives $5 off on Pro and refuses the flow without a paid plan", async () => {
    const pro = await signUpOwner(server);
    await subscribe(pro, "pro");
    expect((await pro.agent.post("/api/subscription/apply-discount")).body.message).toBe(
      "$5 off your next bill has been applied.",
    );
    expect(standIn.requestsTo("POST", "/v1/coupons").at(-1)!.params.amount_off).toBe("500");

    const free = await signUpOwner(server);
    for (const path of [
      "start-cancellation",
      "apply-discount",
      "pause-account",
      "complete-cancellation",
    ]) {
      const body =
        path === "start-cancellation"
          ? { reason: "not_using" }
          : path === "pause-account"
            ? { pauseMonths: 1 }
            : undefined;
      expect((await free.agent.post(`/api/subscription/${path}`, body)).status, path).toBe(409);
    }
    expect((await free.agent.post("/api/subscription/keep-account")).status).toBe(200);
  });

  it("downgrades to free when the 24-hour grace ends unpaid, keeping clients but not the limit", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "pro");
    await addClient(owner);
    await addClient(owner);
    const failedAt = now();
    await deliverEvent(
      owner.agent,
      stripeEvent("invoice.payment_failed", invoiceFor(subscription), failedAt),
    );
    const graceEnd = new Date(
      Math.floor(failedAt.getTime() / 1000) * 1000 + 24 * 3_600_000,
    ).toISOString();
    expect(await status(owner)).toMatchObject({
      accountTier: "pro",
      subscriptionStatus: "past_due",
      paymentFailureGraceEnd: graceEnd,
    });
    // Stripe retries the payment: a second failure does not move the end of the grace.
    await deliverEvent(
      owner.agent,
      stripeEvent("invoice.payment_failed", invoiceFor(subscription), secondsFromNow(3600)),
    );
    expect((await status(owner)).paymentFailureGraceEnd).toBe(graceEnd);

    clock().advanceMinutes(23 * 60);
    await server.jobs.runOnce("billing-grace-expiry");
    expect((await status(owner)).accountTier).toBe("pro");

    clock().advanceMinutes(61);
    await server.jobs.runOnce("billing-grace-expiry");
    expect(await status(owner)).toMatchObject({
      accountTier: "free",
      subscriptionStatus: "canceled",
      paymentFailureGraceEnd: null,
    });
    expect(standIn.requestsTo("DELETE", `/v1/subscriptions/${subscription.id}`)).toHaveLength(1);

    // Every client stays; adding one more is refused on the free plan.
    expect((await owner.agent.get("/api/clients")).body).toHaveLength(2);
    const refused = await owner.agent.post("/api/clients", {
      name: "One more",
      email: "more@example.test",
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Client limit reached/);
    expect((await owner.agent.get("/api/user/account-tier")).body).toMatchObject({
      currentTier: "free",
      clientCount: 2,
      canCreateMore: false,
    });
  });

  describe("failed payments are emailed", () => {
    const billingMails = (owner: SignedInOwner) =>
      server.smtp.mailsTo(owner.email).filter((mail) => /payment|plan/i.test(mail.subject));

    it("at once with the downgrade time and the update link, once more 4 hours before it, never twice", async () => {
      const owner = await signUpOwner(server);
      const subscription = await subscribe(owner, "pro");
      const failedAt = now();
      await deliverEvent(
        owner.agent,
        stripeEvent("invoice.payment_failed", invoiceFor(subscription), failedAt),
      );
      await deliverEvent(
        owner.agent,
        stripeEvent(
          "customer.subscription.updated",
          { ...subscription, status: "past_due" },
          failedAt,
        ),
      );
      await server.mailSettled();
      const graceEnd = new Date(Math.floor(failedAt.getTime() / 1000) * 1000 + 24 * 3_600_000);
      const deadline = `${graceEnd.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;
      const [failed, ...others] = billingMails(owner);
      expect(others).toHaveLength(0);
      expect(failed?.subject).toBe(`Your ClientDesk payment failed: update it by ${deadline}`);
      expect(failed?.text).toContain(
        `Update your payment method by ${deadline} to keep your Pro plan`,
      );
      expect(failed?.text).toContain(`Update payment method: ${server.url}/pricing`);
      expect(failed?.html).toContain(`href="${server.url}/pricing"`);

      // Stripe retries and fails again: no second mail.
      await deliverEvent(
        owner.agent,
        stripeEvent("invoice.payment_failed", invoiceFor(subscription), secondsFromNow(3600)),
      );
      clock().advanceMinutes(19 * 60 + 59);
      await server.jobs.runOnce("billing-grace-expiry");
      await server.mailSettled();
      expect(billingMails(owner)).toHaveLength(1);

      // 4 hours before the downgrade: the reminder, once however often the job runs.
      clock().advanceMinutes(1);
      await server.jobs.runOnce("billing-grace-expiry");
      await server.jobs.runOnce("billing-grace-expiry");
      await server.mailSettled();
      const reminders = billingMails(owner).slice(1);
      expect(reminders.map((mail) => mail.subject)).toEqual([
        "4 hours left to keep your ClientDesk Pro plan",
      ]);
      expect(reminders[0]?.text).toContain(`Update your payment method by ${deadline}`);
      expect(reminders[0]?.text).toContain(`Update payment method: ${server.url}/pricing`);
    });

    it("sends a receipt when the failed payment is paid, and nothing more", async () => {
      const owner = await signUpOwner(server);
      const subscription = await subscribe(owner, "pro");
      await deliverEvent(
        owner.agent,
        stripeEvent("invoice.payment_failed", invoiceFor(subscription), now()),
      );
      const paid = invoiceFor(subscription);
      await deliverEvent(
        owner.agent,
        stripeEvent(
          "invoice.paid",
          { ...paid, amount_paid: 1000, currency: "usd", number: "CD-0042" },
          secondsFromNow(60),
        ),
      );
      await deliverEvent(
        owner.agent,
        stripeEvent(
          "customer.subscription.updated",
          { ...subscription, status: "active" },
          secondsFromNow(61),
        ),
      );
      await server.mailSettled();
      const [failed, received, ...others] = billingMails(owner);
      expect(failed?.subject).toMatch(/^Your ClientDesk payment failed/);
      expect(others).toHaveLength(0);
      expect(received?.subject).toBe("Payment received: your ClientDesk Pro plan continues");
      expect(received?.text).toContain("Amount paid: $10.00");
      expect(received?.text).toContain("Invoice: CD-0042");
      expect(received?.text).toContain("Plan: Pro (monthly)");
      expect((await status(owner)).paymentFailureGraceEnd).toBeNull();

      // A paid renewal without a failure before it is no news: no mail.
      await deliverEvent(
        owner.agent,
        stripeEvent("invoice.paid", invoiceFor(subscription), secondsFromNow(120)),
      );
      await server.mailSettled();
      expect(billingMails(owner)).toHaveLength(2);
    });
  });
});
