import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TestServer, startTestServer } from "../../../tests/support/server";
import Stripe from "stripe";
import {
  deliverEvent,
  StripeStandIn,
  stripeEnv,
  WEBHOOK_SECRET,
} from "../../../tests/support/stripe-stand-in";

/** A correctly signed body that is not a Stripe event billing can read: 400, nothing stored. */
describe("Stripe webhook: signed but malformed events", () => {
  let server: TestServer;
  let standIn: StripeStandIn;
  const logLines: string[] = [];

  beforeAll(async () => {
    standIn = new StripeStandIn();
    await standIn.start();
    server = await startTestServer({
      env: { ...stripeEnv(standIn), LOG_LEVEL: "warn" },
      logDestination: { write: (line) => void logLines.push(line) },
    });
  });
  afterAll(async () => {
    await server?.close();
    await standIn?.stop();
  });

  const eventId = () => `evt_${randomUUID().replaceAll("-", "")}`;
  const created = () => Math.floor(Date.now() / 1000);
  const stored = async (id: string) =>
    (await server.db("billing_events").where({ id }).count({ n: "*" }).first())?.n;

  it.each([
    ["no data.object", (id: string) => ({ id, type: "invoice.paid", data: {} })],
    [
      "no created time",
      (id: string) => ({ id, type: "invoice.paid", data: { object: { id: "in_1" } } }),
    ],
    [
      "no id",
      () => ({ type: "invoice.paid", created: created(), data: { object: { id: "in_1" } } }),
    ],
    [
      "a subscription without customer or status",
      (id: string) => ({
        id,
        type: "customer.subscription.updated",
        created: created(),
        data: { object: { id: "sub_1" } },
      }),
    ],
    [
      "a checkout session that is a string",
      (id: string) => ({
        id,
        type: "checkout.session.completed",
        created: created(),
        data: { object: "cs_1" },
      }),
    ],
    ["an array", () => [1, 2, 3]],
  ])("answers 400 {message} to %s, logs a warning and stores nothing", async (_, build) => {
    const id = eventId();
    const before = logLines.length;
    const answer = await deliverEvent(server.agent(), build(id));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: expect.stringMatching(/^Malformed event: /) });
    expect(await stored(id)).toBe(0);
    const lines = logLines.slice(before).map((line) => JSON.parse(line));
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 40, msg: "stripe webhook: malformed event refused" }),
    );
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });

  it("answers 400 to a signed body that is not JSON", async () => {
    const payload = "{not json";
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const raw = await server.agent().request("POST", "/api/stripe/webhook", {
      body: payload,
      headers: { "content-type": "application/json", "stripe-signature": signature },
    });
    expect(raw).toMatchObject({
      status: 400,
      body: { message: "Malformed event: the body is not JSON" },
    });
    const unsigned = await deliverEvent(server.agent(), { id: "evt_x" }, { secret: "whsec_wrong" });
    expect(unsigned).toMatchObject({ status: 400, body: { message: "Invalid Stripe signature" } });
  });

  it("still accepts a well-formed event of a type billing ignores", async () => {
    const id = eventId();
    const answer = await deliverEvent(server.agent(), {
      id,
      type: "customer.created",
      created: created(),
      data: { object: { id: "cus_1" } },
    });
    expect(answer).toMatchObject({ status: 200, body: { received: true, duplicate: false } });
    expect(await stored(id)).toBe(1);
  });
});
