import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestClock } from "../../tests/support/clock";
import { addJoinedClient } from "../../tests/support/conversations";
import { type SignedInOwner, signUpOwner } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import {
  deliverEvent,
  type StandInSubscription,
  StripeStandIn,
  stripeEnv,
  stripeEvent,
} from "../../tests/support/stripe-stand-in";
import { subscribeWithStripe, subscriptionInvoice } from "../../tests/support/stripe-checkout";
import { TestSocket } from "../../tests/support/ws-client";

/**
 * A paid owner's plan changes and card updates against Stripe (the real SDK, the local
 * stand-in for its API, webhook events signed with the SDK's own helper).
 */
describe("plan changes and the payment method with Stripe", () => {
  let server: TestServer;
  let standIn: StripeStandIn;

  beforeAll(async () => {
    standIn = new StripeStandIn();
    await standIn.start();
    server = await startTestServer({ env: stripeEnv(standIn) });
  });
  afterAll(async () => {
    await server?.close();
    await standIn?.stop();
  });

  const now = () => server.clock.now();
  const status = async (owner: SignedInOwner) =>
    (await owner.agent.get("/api/subscription/status")).body;
  const customerSubscriptions = (customer: string) =>
    [...standIn.subscriptions.values()].filter((each) => each.customer === customer);

  /** A paid checkout: the session, then the subscription's own event, as Stripe sends them. */
  const subscribe = (
    owner: SignedInOwner,
    tier: "pro" | "agency",
    period: "monthly" | "annual" = "monthly",
  ) =>
    subscribeWithStripe(server, standIn, owner, {
      tier,
      period,
      unitAmount: tier === "pro" ? 1000 : 3000,
      periodEnd: new Date(now().getTime() + 30 * 86_400_000),
    });

  const invoiceFor = (subscription: StandInSubscription) =>
    subscriptionInvoice(subscription, { status: "paid" });

  it("moves Pro to Agency on the same subscription, prorated, without a second checkout", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "pro");
    const checkoutsBefore = standIn.requestsTo("POST", "/v1/checkout/sessions").length;
    const periodEnd = (await status(owner)).subscriptionEndDate;

    const changed = await owner.agent.post("/api/subscription/change-plan", {
      tier: "agency",
      period: "monthly",
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.message).toBe(
      "You're now on the Agency plan, billed monthly. The difference is prorated on your next invoice.",
    );
    expect(changed.body.status).toMatchObject({
      accountTier: "agency",
      billingPeriod: "monthly",
      subscriptionStatus: "active",
      // Same interval: the period runs on; only the price changed.
      subscriptionEndDate: periodEnd,
    });

    const update = standIn.requestsTo("POST", `/v1/subscriptions/${subscription.id}`).at(-1)!;
    expect(update.params).toMatchObject({
      proration_behavior: "create_prorations",
      payment_behavior: "error_if_incomplete",
      "items[0][id]": subscription.items.data[0]!.id,
      "metadata[tier]": "agency",
      "metadata[period]": "monthly",
    });
    const price = standIn.prices.get(update.params["items[0][price]"]!)!;
    expect(price).toMatchObject({ unit_amount: 3000, recurring: { interval: "month" } });
    expect(standIn.subscriptions.get(subscription.id)!.items.data[0]!.price.id).toBe(price.id);
    // One subscription, no new checkout.
    expect(standIn.requestsTo("POST", "/v1/checkout/sessions")).toHaveLength(checkoutsBefore);
    expect(customerSubscriptions(subscription.customer)).toHaveLength(1);
    expect((await owner.agent.get("/api/user/account-tier")).body).toMatchObject({
      currentTier: "agency",
    });

    // Stripe's own event for the update changes nothing further.
    await deliverEvent(
      owner.agent,
      stripeEvent(
        "customer.subscription.updated",
        standIn.subscriptions.get(subscription.id),
        now(),
      ),
    );
    expect(await status(owner)).toMatchObject({ accountTier: "agency", billingPeriod: "monthly" });
  });

  it("switches to annual billing with a new period, and back down to Pro reusing the price", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "agency");
    const monthlyEnd = new Date((await status(owner)).subscriptionEndDate).getTime();

    const annual = await owner.agent.post("/api/subscription/change-plan", {
      tier: "agency",
      period: "annual",
    });
    expect(annual.status, JSON.stringify(annual.body)).toBe(200);
    // A new interval is invoiced at once: the text must not promise a later invoice.
    expect(annual.body.message).toBe(
      "You're now on the Agency plan, billed annually. The difference, less credit for your unused time, was charged today.",
    );
    expect(annual.body.status).toMatchObject({ accountTier: "agency", billingPeriod: "annual" });
    // A new interval starts a new (yearly) period today.
    expect(new Date(annual.body.status.subscriptionEndDate).getTime()).toBeGreaterThan(
      monthlyEnd + 300 * 86_400_000,
    );
    const annualPrice = standIn.prices.get(
      standIn.requestsTo("POST", `/v1/subscriptions/${subscription.id}`).at(-1)!.params[
        "items[0][price]"
      ]!,
    );
    expect(annualPrice).toMatchObject({ unit_amount: 30000, recurring: { interval: "year" } });

    const pricesMade = standIn.requestsTo("POST", "/v1/prices").length;
    const down = await owner.agent.post("/api/subscription/change-plan", {
      tier: "pro",
      period: "annual",
    });
    expect(down.status).toBe(200);
    expect(down.body.status).toMatchObject({ accountTier: "pro", billingPeriod: "annual" });
    const other = await signUpOwner(server);
    const otherSubscription = await subscribe(other, "agency");
    expect(
      (await other.agent.post("/api/subscription/change-plan", { tier: "pro", period: "annual" }))
        .status,
    ).toBe(200);
    // The second owner's Pro annual price is the one made for the first (found by lookup key).
    const [first, second] = [subscription, otherSubscription].map(
      (each) => standIn.subscriptions.get(each.id)!.items.data[0]!.price.id,
    );
    expect(second).toBe(first);
    expect(standIn.requestsTo("POST", "/v1/prices")).toHaveLength(pricesMade + 1);
    expect(customerSubscriptions(subscription.customer)).toHaveLength(1);
  });

  it("refuses the plan already held, a change without a paid plan, and a second checkout", async () => {
    const owner = await signUpOwner(server);
    const free = await owner.agent.post("/api/subscription/change-plan", {
      tier: "pro",
      period: "monthly",
    });
    expect(free).toMatchObject({
      status: 409,
      body: { message: "You have no paid subscription to change" },
    });
    await subscribe(owner, "pro");
    expect(
      await owner.agent.post("/api/subscription/change-plan", { tier: "pro", period: "monthly" }),
    ).toMatchObject({
      status: 409,
      body: { message: "You are already on the Pro plan, billed monthly" },
    });
    expect(
      await owner.agent.post("/api/subscription/create-checkout", {
        tier: "agency",
        period: "monthly",
      }),
    ).toMatchObject({
      status: 409,
      body: { message: "You already have a paid plan: change it from the pricing page" },
    });
    expect(
      (await owner.agent.post("/api/subscription/change-plan", { tier: "free", period: "monthly" }))
        .status,
    ).toBe(400);
    expect(
      (await owner.agent.post("/api/subscription/payment-method", { card: "4242" })).status,
    ).toBe(400);
  });

  it("opens the Customer Portal for the owner's customer, returning to /pricing", async () => {
    const owner = await signUpOwner(server);
    const none = await owner.agent.post("/api/subscription/payment-method", {});
    expect(none).toMatchObject({
      status: 409,
      body: { message: "You have no paid subscription to change" },
    });

    const subscription = await subscribe(owner, "pro");
    const answer = await owner.agent.post("/api/subscription/payment-method", {});
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/test_bps_/);
    const portal = standIn.requestsTo("POST", "/v1/billing_portal/sessions").at(-1)!;
    expect(portal.authorization).toBe("Bearer sk_test_stand_in");
    expect(portal.params).toEqual({
      customer: subscription.customer,
      return_url: `${server.url}/pricing`,
    });
  });

  it("ends the grace period when the failed invoice is paid (signed invoice.paid)", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "pro");
    const failed = await deliverEvent(
      owner.agent,
      stripeEvent(
        "invoice.payment_failed",
        invoiceFor(subscription),
        new Date(now().getTime() + 1000),
      ),
    );
    expect(failed.status).toBe(200);
    const inGrace = await status(owner);
    expect(inGrace).toMatchObject({ accountTier: "pro", subscriptionStatus: "past_due" });
    expect(inGrace.paymentFailureGraceEnd).not.toBeNull();
    // While it fails, a second checkout is no way out: the card is.
    expect(
      await owner.agent.post("/api/subscription/create-checkout", {
        tier: "pro",
        period: "monthly",
      }),
    ).toMatchObject({
      status: 409,
      body: { message: "Your last payment failed: update your payment method first" },
    });
    expect((await owner.agent.post("/api/subscription/payment-method", {})).status).toBe(200);

    // A forged event changes nothing.
    const forged = await deliverEvent(
      owner.agent,
      stripeEvent("invoice.paid", invoiceFor(subscription), new Date(now().getTime() + 2000)),
      { secret: "whsec_not_ours" },
    );
    expect(forged.status).toBe(400);
    expect((await status(owner)).paymentFailureGraceEnd).toBe(inGrace.paymentFailureGraceEnd);

    // The portal paid the invoice with the new card: Stripe says so.
    const paid = await deliverEvent(
      owner.agent,
      stripeEvent("invoice.paid", invoiceFor(subscription), new Date(now().getTime() + 2000)),
    );
    expect(paid.status).toBe(200);
    expect(await status(owner)).toMatchObject({
      accountTier: "pro",
      subscriptionStatus: "active",
      paymentFailureGraceEnd: null,
    });
  });

  it("ends the grace period on invoice.payment_succeeded too", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "agency");
    await deliverEvent(
      owner.agent,
      stripeEvent(
        "invoice.payment_failed",
        invoiceFor(subscription),
        new Date(now().getTime() + 1000),
      ),
    );
    expect((await status(owner)).paymentFailureGraceEnd).not.toBeNull();
    await deliverEvent(
      owner.agent,
      stripeEvent(
        "invoice.payment_succeeded",
        invoiceFor(subscription),
        new Date(now().getTime() + 2000),
      ),
    );
    expect(await status(owner)).toMatchObject({
      subscriptionStatus: "active",
      paymentFailureGraceEnd: null,
    });
  });

  it("refuses a change of interval the card cannot pay, keeping the plan as it was", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "pro");
    const before = await status(owner);
    standIn.decliningCustomers.add(subscription.customer);

    const refused = await owner.agent.post("/api/subscription/change-plan", {
      tier: "pro",
      period: "annual",
    });
    expect(refused).toMatchObject({
      status: 402,
      body: { message: "Your card was declined. Your plan has not changed." },
    });
    expect(await status(owner)).toMatchObject({
      accountTier: "pro",
      billingPeriod: "monthly",
      subscriptionStatus: "active",
      subscriptionEndDate: before.subscriptionEndDate,
    });
    const held = standIn.subscriptions.get(subscription.id)!;
    expect(held).toMatchObject({ status: "active", metadata: { period: "monthly" } });
    expect(held.items.data[0]!.price.recurring.interval).toBe("month");

    // The same interval is not charged now, so the declining card does not stand in the way.
    const upgraded = await owner.agent.post("/api/subscription/change-plan", {
      tier: "agency",
      period: "monthly",
    });
    expect(upgraded.status, JSON.stringify(upgraded.body)).toBe(200);
    expect(upgraded.body.message).toBe(
      "You're now on the Agency plan, billed monthly. The difference is prorated on your next invoice.",
    );
  });

  it("refuses a plan change while a payment fails: the card comes first", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "pro");
    await deliverEvent(
      owner.agent,
      stripeEvent(
        "invoice.payment_failed",
        invoiceFor(subscription),
        new Date(now().getTime() + 1000),
      ),
    );
    const failing = await status(owner);
    expect(failing.paymentFailureGraceEnd).not.toBeNull();
    const updatesBefore = standIn.requestsTo("POST", `/v1/subscriptions/${subscription.id}`).length;

    for (const input of [
      { tier: "agency", period: "monthly" },
      { tier: "pro", period: "annual" },
    ]) {
      expect(await owner.agent.post("/api/subscription/change-plan", input)).toMatchObject({
        status: 409,
        body: { message: "Your last payment failed: update your payment method first" },
      });
    }
    // Stripe was not asked: no $0 or credit invoice that would pass for paying the failed one.
    expect(standIn.requestsTo("POST", `/v1/subscriptions/${subscription.id}`)).toHaveLength(
      updatesBefore,
    );
    expect(await status(owner)).toMatchObject({
      accountTier: "pro",
      subscriptionStatus: "past_due",
      paymentFailureGraceEnd: failing.paymentFailureGraceEnd,
    });
  });

  it("tells the owner's open portals (branding_updated) when the plan's tier changes", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "agency");
    const client = await addJoinedClient(server, owner);
    const socket = await TestSocket.open(server.url, { cookie: client.agent.cookieHeader });
    const brandingEvents = () =>
      socket.events.filter((event) => event.type === "branding_updated").length;
    try {
      // Agency -> Pro: the portal drops the agency branding.
      expect(
        (
          await owner.agent.post("/api/subscription/change-plan", {
            tier: "pro",
            period: "monthly",
          })
        ).status,
      ).toBe(200);
      expect(await socket.waitFor((event) => event.type === "branding_updated")).toEqual({
        type: "branding_updated",
        clientId: client.id,
      });
      // A change that keeps the tier (only the interval) says nothing.
      expect(
        (await owner.agent.post("/api/subscription/change-plan", { tier: "pro", period: "annual" }))
          .status,
      ).toBe(200);
      // Back to Agency through Stripe's own event (e.g. changed in the dashboard).
      const held = standIn.subscriptions.get(subscription.id)!;
      held.metadata.tier = "agency";
      await deliverEvent(
        owner.agent,
        stripeEvent("customer.subscription.updated", held, new Date(now().getTime() + 1000)),
      );
      await expect.poll(brandingEvents).toBe(2);

      // The grace ends unpaid: downgraded to free by the job.
      await deliverEvent(
        owner.agent,
        stripeEvent("invoice.payment_failed", invoiceFor(held), new Date(now().getTime() + 2000)),
      );
      (server.clock as TestClock).advanceMinutes(25 * 60);
      await server.jobs.runOnce("billing-grace-expiry");
      expect((await status(owner)).accountTier).toBe("free");
      await expect.poll(brandingEvents).toBe(3);
    } finally {
      socket.close();
    }
  });

  it("tells the open portals when a cancelled plan ends", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "agency");
    const client = await addJoinedClient(server, owner);
    const socket = await TestSocket.open(server.url, { cookie: client.agent.cookieHeader });
    try {
      const ended = { ...standIn.subscriptions.get(subscription.id)!, status: "canceled" };
      await deliverEvent(
        owner.agent,
        stripeEvent("customer.subscription.deleted", ended, new Date(now().getTime() + 1000)),
      );
      expect((await status(owner)).accountTier).toBe("free");
      expect(await socket.waitFor((event) => event.type === "branding_updated")).toEqual({
        type: "branding_updated",
        clientId: client.id,
      });
    } finally {
      socket.close();
    }
  });
});
