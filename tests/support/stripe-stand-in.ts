import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import type { TestAgent } from "./server";

/**
 * A local stand-in for the few Stripe API endpoints billing calls, so the real `stripe` SDK
 * can be used in tests (STRIPE_API_BASE points it here). It answers in Stripe's shapes, keeps
 * subscriptions and their items (added, repriced, given a quantity, deleted) in memory and
 * records every request (form fields flattened as Stripe's SDK
 * sends them, e.g. "line_items[0][price_data][unit_amount]").
 */

export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
}

export interface StandInPrice {
  id: string;
  object: "price";
  active: boolean;
  currency: string;
  unit_amount: number;
  lookup_key: string | null;
  product: string;
  recurring: { interval: string; interval_count: number };
}

export interface StandInSubscriptionItem {
  id: string;
  object: "subscription_item";
  price: StandInPrice;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
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
  items: { object: "list"; data: StandInSubscriptionItem[] };
}

export class StripeStandIn {
  readonly requests: RecordedRequest[] = [];
  readonly subscriptions = new Map<string, StandInSubscription>();
  readonly prices = new Map<string, StandInPrice>();
  /** Customers whose card is declined whenever Stripe charges at once (e.g. a new interval). */
  readonly decliningCustomers = new Set<string>();
  private server = http.createServer((req, res) => void this.handle(req, res));
  private counter = 0;
  /**
   * Ids unique across stand-ins: test files share one PostgreSQL database, where
   * users.stripe_customer_id is unique, so two stand-ins must never both answer cus_standin1.
   */
  private readonly run = randomBytes(4).toString("hex");
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
    /** The checkout's inline price (price_data), in cents; from the metadata's plan if absent. */
    unitAmount?: number;
  }): StandInSubscription {
    const interval = input.metadata.period === "annual" ? "year" : "month";
    const price = this.addPrice({
      unit_amount: input.unitAmount ?? 1000,
      interval,
      lookup_key: null,
      name: `ClientDesk ${input.metadata.tier ?? "plan"}`,
    });
    const subscription: StandInSubscription = {
      id: input.id ?? this.nextId("sub"),
      object: "subscription",
      customer: input.customer,
      status: input.status ?? "active",
      metadata: { ...input.metadata },
      cancel_at_period_end: false,
      cancel_at: null,
      pause_collection: null,
      discounts: [],
      items: {
        object: "list",
        data: [
          {
            id: this.nextId("si"),
            object: "subscription_item",
            price,
            quantity: 1,
            current_period_start: input.periodEnd - (interval === "year" ? 365 : 30) * 86_400,
            current_period_end: input.periodEnd,
          },
        ],
      },
    };
    this.subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  private addPrice(input: {
    unit_amount: number;
    interval: string;
    lookup_key: string | null;
    name: string;
  }): StandInPrice {
    const price: StandInPrice = {
      id: this.nextId("price"),
      object: "price",
      active: true,
      currency: "usd",
      unit_amount: input.unit_amount,
      lookup_key: input.lookup_key,
      product: this.nextId("prod"),
      recurring: { interval: input.interval, interval_count: 1 },
    };
    this.prices.set(price.id, price);
    return price;
  }

  /**
   * Applies `items[N][...]` as Stripe does: with an id, a new price, a new quantity or
   * `deleted`; without one, a new item (price and quantity). Answers an error text, or null.
   */
  private updateItems(
    subscription: StandInSubscription,
    params: Record<string, string>,
  ): string | null {
    for (
      let index = 0;
      params[`items[${index}][id]`] || params[`items[${index}][price]`];
      index++
    ) {
      const field = (name: string) => params[`items[${index}][${name}]`];
      const price = field("price") === undefined ? undefined : this.prices.get(field("price")!);
      if (field("price") !== undefined && !price) return `No such price: '${field("price")}'`;
      const items = subscription.items.data;
      const id = field("id");
      if (!id) {
        if (!price) return "A new subscription item needs a price";
        const period = items[0];
        items.push({
          id: this.nextId("si"),
          object: "subscription_item",
          price,
          quantity: Number(field("quantity") ?? 1),
          current_period_start: period?.current_period_start ?? Math.floor(Date.now() / 1000),
          current_period_end: period?.current_period_end ?? Math.floor(Date.now() / 1000),
        });
        continue;
      }
      const item = items.find((each) => each.id === id);
      if (!item) return `No such subscription item: '${id}'`;
      if (field("deleted") === "true") {
        items.splice(items.indexOf(item), 1);
        continue;
      }
      if (field("quantity") !== undefined) item.quantity = Number(field("quantity"));
      if (price) {
        // A new interval starts a new period now (Stripe resets the billing cycle anchor).
        if (price.recurring.interval !== item.price.recurring.interval) {
          const now = Math.floor(Date.now() / 1000);
          for (const each of items) {
            each.current_period_start = now;
            each.current_period_end =
              now + (price.recurring.interval === "year" ? 365 : 30) * 86_400;
          }
        }
        item.price = price;
      }
    }
    return null;
  }

  private nextId(prefix: string) {
    this.counter += 1;
    return `${prefix}_standin${this.run}${this.counter}`;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://stand-in");
    // The SDK sends a GET's parameters in the query string, a POST's in a form body.
    const params = Object.fromEntries(
      new URLSearchParams(
        req.method === "GET" ? url.search : Buffer.concat(chunks).toString("utf8"),
      ),
    );
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
    if (method === "POST" && url.pathname === "/v1/billing_portal/sessions") {
      if (!params.customer) {
        return send(400, {
          error: { type: "invalid_request_error", message: "Missing required param: customer." },
        });
      }
      const id = this.nextId("bps");
      return send(200, {
        id,
        object: "billing_portal.session",
        customer: params.customer,
        return_url: params.return_url ?? null,
        livemode: false,
        url: `https://billing.stripe.com/p/session/test_${id}`,
      });
    }
    if (method === "GET" && url.pathname === "/v1/prices") {
      const keys = Object.entries(params)
        .filter(([key]) => key.startsWith("lookup_keys["))
        .map(([, value]) => value);
      const data = [...this.prices.values()].filter(
        (price) => price.active && (keys.length === 0 || keys.includes(price.lookup_key ?? "")),
      );
      return send(200, { object: "list", url: "/v1/prices", has_more: false, data });
    }
    if (method === "POST" && url.pathname === "/v1/prices") {
      const lookupKey = params.lookup_key ?? null;
      // transfer_lookup_key moves the key from an older price, as Stripe does.
      for (const price of this.prices.values())
        if (lookupKey && price.lookup_key === lookupKey) price.lookup_key = null;
      return send(
        200,
        this.addPrice({
          unit_amount: Number(params.unit_amount),
          interval: params["recurring[interval]"] ?? "month",
          lookup_key: lookupKey,
          name: params["product_data[name]"] ?? "",
        }),
      );
    }
    const subscriptionPath = url.pathname.match(/^\/v1\/subscriptions\/([^/]+)$/);
    if (subscriptionPath) {
      const subscription = this.subscriptions.get(decodeURIComponent(subscriptionPath[1]!));
      if (!subscription) return notFound();
      if (method === "POST") {
        // A new interval is invoiced at once. A declined card: with error_if_incomplete Stripe
        // changes nothing and answers a card error; by default it applies the change anyway and
        // the subscription is past_due on the open invoice.
        const newPrice = this.prices.get(params["items[0][price]"] ?? "");
        const chargesNow =
          newPrice !== undefined &&
          newPrice.recurring.interval !== subscription.items.data[0]?.price.recurring.interval;
        if (chargesNow && this.decliningCustomers.has(subscription.customer)) {
          if (params.payment_behavior === "error_if_incomplete") {
            return send(402, {
              error: {
                type: "card_error",
                code: "card_declined",
                decline_code: "generic_decline",
                message: "Your card was declined.",
              },
            });
          }
          subscription.status = "past_due";
        }
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
        for (const [key, value] of Object.entries(params)) {
          const field = key.match(/^metadata\[(.+)\]$/)?.[1];
          if (field) subscription.metadata[field] = value;
        }
        const itemsError = this.updateItems(subscription, params);
        if (itemsError) {
          return send(400, { error: { type: "invalid_request_error", message: itemsError } });
        }
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
