import { randomBytes } from "node:crypto";
import {
  type BillingPeriod,
  planPriceCents,
  SEAT_TIER,
  seatPriceCents,
  type Tier,
} from "../../shared/tiers";
import type { User } from "../models";
import { seatLookupKey } from "./seat-item";
import type { BillingEvent } from "./stripe-objects";
import type { TestCheckoutSession } from "./test-checkout-token";

/**
 * Test mode plays Stripe's part: it builds the events (and subscription objects) Stripe would
 * send, in Stripe's shapes, and they go through the same handler as real webhook events.
 */

export const toSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function addPeriod(from: Date, period: BillingPeriod, count = 1): Date {
  const next = new Date(from);
  next.setUTCMonth(next.getUTCMonth() + (period === "annual" ? 12 * count : count));
  return next;
}

export function addMonths(from: Date, months: number): Date {
  const next = new Date(from);
  next.setUTCMonth(next.getUTCMonth() + months);
  return next;
}

export function testEvent(type: string, object: unknown, at: Date, id?: string): BillingEvent {
  return {
    id: id ?? `evt_test_${randomBytes(12).toString("hex")}`,
    type,
    created: toSeconds(at),
    data: { object },
  };
}

/** Test mode's customer ids; Stripe's own are alphanumeric after `cus_`, never like these. */
export const TEST_CUSTOMER_PREFIX = "cus_test_";

export const testCustomerId = (user: User) =>
  user.stripeCustomerId?.startsWith(TEST_CUSTOMER_PREFIX)
    ? user.stripeCustomerId
    : `${TEST_CUSTOMER_PREFIX}${user.id.replaceAll("-", "")}`;

interface SubscriptionFacts {
  id: string;
  customer: string;
  userId: string;
  tier: Tier;
  period: BillingPeriod;
  status: string;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  pausedUntil: Date | null;
  /** Seats bought on top of the plan's: the seat item's quantity (none at 0). */
  extraSeats: number;
}

/** A subscription object as Stripe's API (2025+) shapes it. */
export function testSubscriptionObject(facts: SubscriptionFacts) {
  const end = facts.currentPeriodEnd ? toSeconds(facts.currentPeriodEnd) : null;
  const plan = { object: "subscription_item", quantity: 1, current_period_end: end };
  const seats = {
    object: "subscription_item",
    quantity: facts.extraSeats,
    current_period_end: end,
    price: { lookup_key: seatLookupKey(facts.period) },
  };
  return {
    id: facts.id,
    object: "subscription",
    customer: facts.customer,
    status: facts.status,
    metadata: { userId: facts.userId, tier: facts.tier, period: facts.period },
    cancel_at_period_end: facts.cancelAtPeriodEnd,
    cancel_at: facts.cancelAtPeriodEnd ? end : null,
    pause_collection: facts.pausedUntil
      ? { behavior: "void", resumes_at: toSeconds(facts.pausedUntil) }
      : null,
    items: { object: "list", data: facts.extraSeats > 0 ? [plan, seats] : [plan] },
  };
}

/** The account's current test subscription, with changes. */
export function currentTestSubscription(user: User, changes: Partial<SubscriptionFacts> = {}) {
  return testSubscriptionObject({
    id: user.stripeSubscriptionId ?? "",
    customer: testCustomerId(user),
    userId: user.id,
    tier: user.accountTier,
    period: user.billingPeriod === "annual" ? "annual" : "monthly",
    status: user.subscriptionStatus,
    currentPeriodEnd: user.subscriptionEndDate,
    cancelAtPeriodEnd: user.cancelAtPeriodEnd,
    pausedUntil: user.pausedUntil,
    extraSeats: user.accountTier === SEAT_TIER ? user.extraSeats : 0,
    ...changes,
  });
}

/** An invoice as Stripe shows it; `amountPaid` in cents (0 for a failed one). */
function testInvoice(subscriptionId: string, customer: string, id: string, amountPaid: number) {
  return {
    id,
    object: "invoice",
    customer,
    amount_paid: amountPaid,
    currency: "usd",
    number: id
      .replace(/^in_test_/, "TEST-")
      .slice(0, 20)
      .toUpperCase(),
    parent: {
      type: "subscription_details",
      subscription_details: { subscription: subscriptionId },
    },
  };
}

/** What Stripe sends when a checkout is paid: the session, the new subscription, its invoice. */
export function checkoutPaidEvents(
  user: User,
  session: TestCheckoutSession,
  at: Date,
): BillingEvent[] {
  const subscriptionId = `sub_test_${session.nonce}`;
  const customer = testCustomerId(user);
  const metadata = { userId: session.userId, tier: session.tier, period: session.period };
  const subscription = testSubscriptionObject({
    id: subscriptionId,
    customer,
    userId: session.userId,
    tier: session.tier,
    period: session.period,
    status: "active",
    currentPeriodEnd: addPeriod(at, session.period),
    cancelAtPeriodEnd: false,
    pausedUntil: null,
    extraSeats: 0,
  });
  const checkout = {
    id: `cs_test_${session.nonce}`,
    object: "checkout.session",
    mode: "subscription",
    customer,
    subscription: subscriptionId,
    client_reference_id: session.userId,
    payment_status: "paid",
    metadata,
  };
  const prefix = `evt_test_${session.nonce}`;
  return [
    testEvent("checkout.session.completed", checkout, at, `${prefix}_checkout`),
    testEvent("customer.subscription.created", subscription, at, `${prefix}_subscription`),
    testEvent(
      "invoice.paid",
      testInvoice(
        subscriptionId,
        customer,
        `in_test_${session.nonce}`,
        planPriceCents(session.tier, session.period),
      ),
      at,
      `${prefix}_invoice`,
    ),
  ];
}

/** What a renewal of the account's subscription costs: the plan and its extra seats. */
export function renewalCents(user: User): number {
  const period = user.billingPeriod === "annual" ? "annual" : "monthly";
  const seats = user.accountTier === SEAT_TIER ? user.extraSeats : 0;
  return planPriceCents(user.accountTier, period) + seats * seatPriceCents(period);
}

/** A renewal: paid (the period moves on) or failed (past_due; the grace period starts). */
export function renewalEvents(user: User, outcome: "succeed" | "fail", at: Date): BillingEvent[] {
  const subscriptionId = user.stripeSubscriptionId ?? "";
  const period = user.billingPeriod === "annual" ? "annual" : "monthly";
  const invoice = testInvoice(
    subscriptionId,
    testCustomerId(user),
    `in_test_${randomBytes(8).toString("hex")}`,
    outcome === "fail" ? 0 : renewalCents(user),
  );
  if (outcome === "fail") {
    return [
      testEvent("invoice.payment_failed", invoice, at),
      testEvent(
        "customer.subscription.updated",
        currentTestSubscription(user, { status: "past_due" }),
        at,
      ),
    ];
  }
  const base =
    user.subscriptionEndDate && user.subscriptionEndDate > at ? user.subscriptionEndDate : at;
  return [
    testEvent("invoice.paid", invoice, at),
    testEvent(
      "customer.subscription.updated",
      currentTestSubscription(user, {
        status: "active",
        currentPeriodEnd: addPeriod(base, period),
      }),
      at,
    ),
  ];
}
