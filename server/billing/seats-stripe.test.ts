import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SignedInOwner, signUpOwner, uniqueEmail } from "../../tests/support/factories";
import { type TestServer, startTestServer } from "../../tests/support/server";
import { subscribeWithStripe } from "../../tests/support/stripe-checkout";
import {
  deliverEvent,
  type StandInSubscription,
  StripeStandIn,
  stripeEnv,
  stripeEvent,
} from "../../tests/support/stripe-stand-in";

/**
 * Extra seats against Stripe (issue 26): the real SDK, the local stand-in for its API, and
 * webhook events signed with the SDK's own helper. Seats are a second subscription item.
 */
describe("extra seats with Stripe", () => {
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
  const seats = async (owner: SignedInOwner) =>
    (await owner.agent.get("/api/subscription/seats")).body;
  const setSeats = (owner: SignedInOwner, extra: number) =>
    owner.agent.put("/api/subscription/seats", { extra });
  const subscribe = (owner: SignedInOwner, period: "monthly" | "annual" = "monthly") =>
    subscribeWithStripe(server, standIn, owner, {
      tier: "agency",
      period,
      unitAmount: period === "annual" ? 30000 : 3000,
      periodEnd: new Date(now().getTime() + 30 * 86_400_000),
    });
  const lastUpdate = (subscription: StandInSubscription) =>
    standIn.requestsTo("POST", `/v1/subscriptions/${subscription.id}`).at(-1)!;
  const seatItem = (subscription: StandInSubscription) =>
    standIn.subscriptions
      .get(subscription.id)!
      .items.data.find((item) => item.price.lookup_key?.startsWith("clientdesk_seat_"));

  it("adds a second item at $8 a month with proration, then raises its quantity", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner);

    const bought = await setSeats(owner, 1);
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    expect(bought.body.seats).toMatchObject({ extra: 1, total: 4 });
    const added = lastUpdate(subscription);
    expect(added.params).toMatchObject({
      proration_behavior: "create_prorations",
      "items[0][quantity]": "1",
    });
    expect(added.params["items[0][id]"]).toBeUndefined();
    const price = standIn.prices.get(added.params["items[0][price]"]!)!;
    expect(price).toMatchObject({
      unit_amount: 800,
      recurring: { interval: "month" },
      lookup_key: "clientdesk_seat_monthly_800",
    });
    // The plan's item is untouched; the seats are the second item.
    const items = standIn.subscriptions.get(subscription.id)!.items.data;
    expect(items).toHaveLength(2);
    expect(items[0]!.quantity).toBe(1);
    expect(seatItem(subscription)).toMatchObject({ quantity: 1, price: { id: price.id } });

    expect((await setSeats(owner, 3)).status).toBe(200);
    expect(lastUpdate(subscription).params).toMatchObject({
      "items[0][id]": seatItem(subscription)!.id,
      "items[0][quantity]": "3",
      proration_behavior: "create_prorations",
    });
    expect(seatItem(subscription)!.quantity).toBe(3);
    expect(await seats(owner)).toMatchObject({ extra: 3, total: 6 });
    // The seat price is made once and found again by its lookup key.
    expect(standIn.requestsTo("POST", "/v1/prices")).toHaveLength(1);
  });

  it("prices a seat of an annual subscription at $80 a year", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner, "annual");
    expect((await setSeats(owner, 2)).status).toBe(200);
    expect(seatItem(subscription)).toMatchObject({
      quantity: 2,
      price: { unit_amount: 8000, recurring: { interval: "year" } },
    });
  });

  it("gives seats back without proration, and removes the item at 0", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner);
    await setSeats(owner, 2);
    const item = seatItem(subscription)!;

    expect((await setSeats(owner, 1)).status).toBe(200);
    expect(lastUpdate(subscription).params).toMatchObject({
      "items[0][id]": item.id,
      "items[0][quantity]": "1",
      proration_behavior: "none",
    });
    expect((await setSeats(owner, 0)).status).toBe(200);
    expect(lastUpdate(subscription).params).toMatchObject({
      "items[0][id]": item.id,
      "items[0][deleted]": "true",
      proration_behavior: "none",
    });
    expect(seatItem(subscription)).toBeUndefined();
    expect(await seats(owner)).toMatchObject({ extra: 0, total: 3 });
  });

  it("takes the seats from Stripe's events: a change made in Stripe's dashboard counts", async () => {
    const owner = await signUpOwner(server, "Olga Owner");
    const subscription = await subscribe(owner);
    await setSeats(owner, 1);
    const held = standIn.subscriptions.get(subscription.id)!;
    seatItem(subscription)!.quantity = 4;
    const event = stripeEvent("customer.subscription.updated", held, now());
    expect((await deliverEvent(owner.agent, event)).status).toBe(200);
    expect(await seats(owner)).toMatchObject({ extra: 4, total: 7 });
    const entries = (await owner.agent.get("/api/team/audit")).body.entries;
    expect(entries.slice(0, 2)).toMatchObject([
      { actorName: "Billing", action: "seats.changed", details: { seats: 4, previousSeats: 1 } },
      { actorName: "Olga Owner", action: "seats.changed", details: { seats: 1, previousSeats: 0 } },
    ]);
    // A replay changes nothing and records nothing.
    expect((await deliverEvent(owner.agent, event)).body).toEqual({
      received: true,
      duplicate: true,
    });
    expect((await owner.agent.get("/api/team/audit")).body.entries).toHaveLength(entries.length);

    // The subscription ends: the seats go with it.
    held.status = "canceled";
    await deliverEvent(
      owner.agent,
      stripeEvent("customer.subscription.deleted", held, new Date(now().getTime() + 1000)),
    );
    expect(await seats(owner)).toMatchObject({ included: 1, extra: 0, total: 1 });
  });

  it("moves the seats to the annual price with the plan, and removes them with a downgrade", async () => {
    const owner = await signUpOwner(server);
    const subscription = await subscribe(owner);
    await setSeats(owner, 2);
    const item = seatItem(subscription)!;

    const annual = await owner.agent.post("/api/subscription/change-plan", {
      tier: "agency",
      period: "annual",
    });
    expect(annual.status, JSON.stringify(annual.body)).toBe(200);
    const update = lastUpdate(subscription);
    expect(update.params["items[1][id]"]).toBe(item.id);
    expect(standIn.prices.get(update.params["items[1][price]"]!)).toMatchObject({
      unit_amount: 8000,
      recurring: { interval: "year" },
    });
    expect(seatItem(subscription)).toMatchObject({ quantity: 2 });
    expect(await seats(owner)).toMatchObject({ extra: 2, billingPeriod: "annual" });

    const pro = await owner.agent.post("/api/subscription/change-plan", {
      tier: "pro",
      period: "annual",
    });
    expect(pro.status, JSON.stringify(pro.body)).toBe(200);
    expect(lastUpdate(subscription).params).toMatchObject({
      "items[1][id]": item.id,
      "items[1][deleted]": "true",
      proration_behavior: "create_prorations",
    });
    expect(standIn.subscriptions.get(subscription.id)!.items.data).toHaveLength(1);
    expect(await seats(owner)).toMatchObject({ included: 1, extra: 0 });
  });

  it("lets the invite that was refused for want of a seat through once one is bought", async () => {
    const owner = await signUpOwner(server);
    await subscribe(owner);
    const invite = () =>
      owner.agent.post("/api/team/members", { email: uniqueEmail("seat"), role: "member" });
    expect((await invite()).status).toBe(201);
    expect((await invite()).status).toBe(201);
    expect((await invite()).status).toBe(402);
    expect((await setSeats(owner, 1)).status).toBe(200);
    expect((await invite()).status).toBe(201);
    expect(await seats(owner)).toMatchObject({ used: 1, pending: 3, total: 4 });
  });
});
