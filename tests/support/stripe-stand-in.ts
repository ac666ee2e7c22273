import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import type { TestAgent } from "./server";

/**
 * A local stand-in for the few Stripe API endpoints billing calls, so the real `stripe` SDK
 * can be used in tests (STRIPE_API_BASE points it here). It answers in Stripe's shapes, keeps
 * subscriptions in memory and records every request (form fields flattened as Stripe's SDK
 * sends them, e.g. "line_items[0][price_data][unit_amount]").
 */

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
}

export interface StandInSubscription {
  id: string;
  object: "subscription";
  customer: string;
  status: string;
  metadata: Record<string, string>;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  pause_collection: { behavior: string; resumes_at: number | null } | null;
  discounts: string[];
  items: { object: "list"; data: { object: "subscription_item"; current_period_end: number }[] };
}

export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  readonly subscriptions = new Map<string, StandInSubscription>();
  private server = http.createServer((req, res) => void this.handle(req, res));
  private counter = 0;
  url = "";

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Requests to one endpoint, e.g. requestsTo("POST", "/v1/coupons"). */
  requestsTo(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method && request.path === path);
  }

  /** A subscription as Stripe would hold it after a checkout (tests send its events). */
  addSubscription(input: {
    id?: string;
    customer: string;
    metadata: Record<string, string>;
    periodEnd: number;
    status?: string;
  }): StandInSubscription {
    const subscription: StandInSubscription = {
      id: input.id ?? this.nextId("sub"),
      object: "subscription",
      customer: input.customer,
      status: input.status ?? "active",
      metadata: input.metadata,
      cancel_at_period_end: false,
      cancel_at: null,
      pause_collection: null,
      discounts: [],
      items: {
        object: "list",
        data: [{ object: "subscription_item", current_period_end: input.periodEnd }],
      },
    };
    this.subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  private nextId(prefix: string) {
    this.counter += 1;
    return `${prefix}_standin${this.counter}`;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://stand-in");
    const params = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
    const method = req.method ?? "GET";
    this.requests.push({
      method,
      path: url.pathname,
      params,
      authorization: req.headers.authorization,
      idempotencyKey: req.headers["idempotency-key"] as string | undefined,
    });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        "content-type": "application/json",
        "request-id": this.nextId("req"),
      });
      res.end(JSON.stringify(body));
    };
    const notFound = () =>
      send(404, {
        error: { type: "invalid_request_error", message: `No such resource: ${url.pathname}` },
      });

    if (method === "POST" && url.pathname === "/v1/customers") {
      return send(200, {
        id: this.nextId("cus"),
        object: "customer",
        email: params.email,
        metadata: {},
      });
    }
    if (method === "POST" && url.pathname === "/v1/checkout/sessions") {
      const id = this.nextId("cs_test");
      return send(200, {
        id,
        object: "checkout.session",
        mode: params.mode,
        customer: params.customer,
        client_reference_id: params.client_reference_id,
        url: `https://checkout.stripe.com/c/pay/${id}`,
      });
    }
    if (method === "POST" && url.pathname === "/v1/coupons") {
      return send(200, {
        id: this.nextId("coupon"),
        object: "coupon",
        amount_off: Number(params.amount_off),
        currency: params.currency,
        duration: params.duration,
      });
    }
    const subscriptionPath = url.pathname.match(/^\/v1\/subscriptions\/([^/]+)$/);
    if (subscriptionPath) {
      const subscription = this.subscriptions.get(decodeURIComponent(subscriptionPath[1]!));
      if (!subscription) return notFound();
      if (method === "POST") {
        if (params.cancel_at_period_end !== undefined) {
          subscription.cancel_at_period_end = params.cancel_at_period_end === "true";
          subscription.cancel_at = subscription.cancel_at_period_end
            ? (subscription.items.data[0]?.current_period_end ?? null)
            : null;
        }
        if (params["pause_collection[behavior]"]) {
          subscription.pause_collection = {
            behavior: params["pause_collection[behavior]"],
            resumes_at: Number(params["pause_collection[resumes_at]"]) || null,
          };
        }
        if (params["discounts[0][coupon]"])
          subscription.discounts = [params["discounts[0][coupon]"]];
        return send(200, subscription);
      }
      if (method === "DELETE") {
        subscription.status = "canceled";
        return send(200, subscription);
      }
      if (method === "GET") return send(200, subscription);
    }
    return notFound();
  }
}

export const WEBHOOK_SECRET = "whsec_test_clientdesk_stand_in";

/** Environment for a test server that bills through the stand-in. */
export function stripeEnv(standIn: StripeStandIn): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: "sk_test_stand_in",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: standIn.url,
  };
}

/** An event as Stripe would send it. */
export function stripeEvent(type: string, object: unknown, created: Date, id?: string) {
  return {
    id: id ?? `evt_${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`,
    object: "event",
    api_version: "2026-10-28.endive",
    type,
    created: Math.floor(created.getTime() / 1000),
    livemode: false,
    pending_webhooks: 1,
    data: { object },
  };
}

/** POSTs an event to the webhook, signed with the SDK's own test-header helper. */
export async function deliverEvent(
  agent: TestAgent,
  event: unknown,
  options: { secret?: string; timestamp?: number; signature?: string | null } = {},
) {
  const payload = JSON.stringify(event);
  const signature =
    options.signature === undefined
      ? Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: options.secret ?? WEBHOOK_SECRET,
          timestamp: options.timestamp,
        })
      : options.signature;
  const headers: Record<string, string> = {
    "content-type": "application/json",
    origin: "https://stripe.com",
  };
  if (signature !== null) headers["stripe-signature"] = signature;
  return agent.request("POST", "/api/stripe/webhook", { body: payload, headers });
}
