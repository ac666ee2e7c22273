import type { Knex } from "knex";
import type { PartialModelObject } from "objection";
import { LIVE_STATUSES } from "../../shared/subscription-statuses";
import { PAYMENT_GRACE_HOURS, SEAT_TIER } from "../../shared/tiers";
import { User } from "../models";
import { seatQuantity } from "./seat-item";
import {
  type CheckoutSessionObject,
  ENDED_STATUSES,
  type InvoiceObject,
  invoiceSubscriptionId,
  periodEnd,
  readMetadata,
  type SubscriptionObject,
} from "./stripe-objects";

/**
 * The one place where billing facts (Stripe events, Stripe API answers, test-mode events)
 * become account state. Each fact carries its time `at`; a fact older than the newest one
 * already applied to the account (users.billing_synced_at) changes nothing, so events that
 * arrive out of order end in the state of the newest one.
 */

type UserPatch = PartialModelObject<User>;

/** A payment's turn the owner is emailed about (server/billing/payment-mails.ts). */
export type PaymentChange =
  | { kind: "failed"; userId: string; graceEnd: Date }
  | { kind: "recovered"; userId: string; invoice: InvoiceObject | null };

export interface Applied {
  applied: boolean;
  /** A subscription this one replaced as the account's current one: to be ended at the provider. */
  replacedSubscriptionId: string | null;
  /** The account whose plan (accountTier) changed: its clients' portals show branding by it. */
  tierChangedFor: string | null;
  /** A grace period started (a renewal failed) or ended by a payment. */
  payment: PaymentChange | null;
  /** The extra seats the account bills for changed (the audit log records it). */
  seatsChanged: SeatsChange | null;
}
export interface SeatsChange {
  ownerId: string;
  before: number;
  after: number;
}
export const NOT_APPLIED: Applied = {
  applied: false,
  replacedSubscriptionId: null,
  tierChangedFor: null,
  payment: null,
  seatsChanged: null,
};

const isStale = (user: User, at: Date) =>
  user.billingSyncedAt !== null && at.getTime() < new Date(user.billingSyncedAt).getTime();

const graceEndFrom = (at: Date) => new Date(at.getTime() + PAYMENT_GRACE_HOURS * 3_600_000);

async function save(trx: Knex.Transaction, user: User, patch: UserPatch, at: Date) {
  await User.query(trx)
    .findById(user.id)
    .patch({ ...patch, billingSyncedAt: at });
}

/** The failure that starts a grace period (once: retries do not start another). */
function graceStarted(user: User, patch: UserPatch): PaymentChange | null {
  const graceEnd = patch.paymentFailureGraceEnd;
  if (user.paymentFailureGraceEnd || !(graceEnd instanceof Date)) return null;
  return { kind: "failed", userId: user.id, graceEnd };
}

/** A payment that ends a running grace period (not a downgrade or cancellation ending it). */
function paidDuringGrace(
  user: User,
  patch: UserPatch,
  invoice: InvoiceObject | null,
): PaymentChange | null {
  if (!user.paymentFailureGraceEnd || patch.paymentFailureGraceEnd !== null) return null;
  return { kind: "recovered", userId: user.id, invoice };
}

/** The account a Stripe customer (or our own user id in metadata) belongs to, locked. */
export async function lockBillingUser(
  trx: Knex.Transaction,
  ref: { customerId?: string | null; userId?: string | null },
): Promise<User | undefined> {
  if (ref.customerId) {
    const user = await User.query(trx)
      .where("stripeCustomerId", ref.customerId)
      .forUpdate()
      .first();
    if (user) return user;
  }
  if (ref.userId && /^[0-9a-f-]{36}$/i.test(ref.userId)) {
    return User.query(trx).findById(ref.userId).where("role", "owner").forUpdate();
  }
  return undefined;
}

/**
 * A subscription's state as Stripe reports it. A live subscription other than the account's
 * current one becomes current (a new checkout); an ended one that is not current (the plan
 * replaced by a new checkout) is ignored.
 */
export async function applySubscription(
  trx: Knex.Transaction,
  user: User,
  subscription: SubscriptionObject,
  at: Date,
): Promise<Applied> {
  const live = LIVE_STATUSES.has(subscription.status);
  const isCurrent = subscription.id === user.stripeSubscriptionId;
  if ((!isCurrent && !live) || isStale(user, at)) return NOT_APPLIED;
  const meta = readMetadata(subscription.metadata);
  const patch: UserPatch = {
    stripeSubscriptionId: subscription.id,
    stripeCustomerId: subscription.customer,
    subscriptionStatus: subscription.status,
    subscriptionEndDate: periodEnd(subscription),
  };
  let extraSeats: number | undefined;
  if (live) {
    const tier = meta.tier && meta.tier !== "free" ? meta.tier : user.accountTier;
    // Seats are bought on Agency only; a seat item left on another plan gives none.
    extraSeats = tier === SEAT_TIER ? seatQuantity(subscription) : 0;
    Object.assign(patch, {
      accountTier: tier,
      extraSeats,
      billingPeriod: meta.period ?? user.billingPeriod,
      cancelAtPeriodEnd: Boolean(subscription.cancel_at_period_end || subscription.cancel_at),
      pausedUntil: subscription.pause_collection?.resumes_at
        ? new Date(subscription.pause_collection.resumes_at * 1000)
        : null,
      // past_due means a payment failed: the grace runs from the first failure we learn of.
      paymentFailureGraceEnd:
        subscription.status === "past_due"
          ? (user.paymentFailureGraceEnd ?? graceEndFrom(at))
          : null,
    });
  } else if (ENDED_STATUSES.has(subscription.status)) {
    extraSeats = 0;
    Object.assign(patch, {
      accountTier: "free",
      extraSeats: 0,
      cancelAtPeriodEnd: false,
      pausedUntil: null,
      paymentFailureGraceEnd: null,
    });
  }
  await save(trx, user, patch, at);
  return {
    applied: true,
    replacedSubscriptionId: isCurrent ? null : user.stripeSubscriptionId,
    tierChangedFor:
      patch.accountTier !== undefined && patch.accountTier !== user.accountTier ? user.id : null,
    payment:
      live && isCurrent ? (graceStarted(user, patch) ?? paidDuringGrace(user, patch, null)) : null,
    seatsChanged:
      extraSeats !== undefined && extraSeats !== user.extraSeats
        ? { ownerId: user.id, before: user.extraSeats, after: extraSeats }
        : null,
  };
}

/**
 * A paid checkout: the plan starts now. Answers the subscription it replaces (to be
 * cancelled in Stripe), if any.
 */
export async function applyCheckoutCompleted(
  trx: Knex.Transaction,
  session: CheckoutSessionObject,
  at: Date,
): Promise<Applied> {
  const none = NOT_APPLIED;
  const meta = readMetadata(session.metadata);
  if (
    session.mode !== "subscription" ||
    !session.subscription ||
    !meta.tier ||
    meta.tier === "free"
  )
    return none;
  if (session.payment_status !== "paid" && session.payment_status !== "no_payment_required")
    return none;
  const user = await lockBillingUser(trx, {
    userId: session.client_reference_id ?? meta.userId,
    customerId: session.customer,
  });
  if (!user) return none;
  const isCurrent = user.stripeSubscriptionId === session.subscription;
  // Its subscription's own events may have come first: then only newer facts count.
  if (isCurrent && isStale(user, at)) return none;
  const replaced = !isCurrent ? user.stripeSubscriptionId : null;
  await save(
    trx,
    user,
    {
      stripeCustomerId: session.customer ?? user.stripeCustomerId,
      stripeSubscriptionId: session.subscription,
      accountTier: meta.tier,
      billingPeriod: meta.period ?? user.billingPeriod,
      subscriptionStatus: "active",
      paymentFailureGraceEnd: null,
      cancelAtPeriodEnd: false,
      pausedUntil: null,
      cancellationReason: null,
      cancellationDetails: null,
      cancellationRequestedAt: null,
      ...(isCurrent
        ? {}
        : { subscriptionEndDate: null, retentionDiscountAt: null, retentionDiscountCents: null }),
    },
    at,
  );
  return {
    applied: true,
    replacedSubscriptionId: replaced,
    tierChangedFor: meta.tier !== user.accountTier ? user.id : null,
    payment: null,
    seatsChanged: null,
  };
}

/** A renewal payment failed: the grace period starts (once; retries do not extend it). */
export async function applyPaymentFailed(
  trx: Knex.Transaction,
  invoice: InvoiceObject,
  at: Date,
): Promise<Applied> {
  const user = await invoiceUser(trx, invoice);
  if (!user || isStale(user, at) || user.accountTier === "free") return NOT_APPLIED;
  const patch: UserPatch = {
    subscriptionStatus: "past_due",
    paymentFailureGraceEnd: user.paymentFailureGraceEnd ?? graceEndFrom(at),
  };
  await save(trx, user, patch, at);
  return { ...NOT_APPLIED, applied: true, payment: graceStarted(user, patch) };
}

/** A payment went through: any grace period ends. */
export async function applyPaymentSucceeded(
  trx: Knex.Transaction,
  invoice: InvoiceObject,
  at: Date,
): Promise<Applied> {
  const user = await invoiceUser(trx, invoice);
  if (!user || isStale(user, at) || user.accountTier === "free") return NOT_APPLIED;
  const patch: UserPatch = { subscriptionStatus: "active", paymentFailureGraceEnd: null };
  await save(trx, user, patch, at);
  return { ...NOT_APPLIED, applied: true, payment: paidDuringGrace(user, patch, invoice) };
}

/** The account whose current subscription the invoice is for. */
async function invoiceUser(trx: Knex.Transaction, invoice: InvoiceObject) {
  const subscriptionId = invoiceSubscriptionId(invoice);
  if (!subscriptionId) return undefined;
  const user = await User.query(trx)
    .where("stripeSubscriptionId", subscriptionId)
    .forUpdate()
    .first();
  return user;
}
