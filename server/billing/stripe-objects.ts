import { z } from "zod";
import { BILLING_PERIODS, type BillingPeriod, TIERS, type Tier } from "../../shared/tiers";

/**
 * The parts of Stripe's objects that billing reads, parsed loosely (Stripe adds fields all the
 * time; API versions move some, e.g. current_period_end from the subscription to its items and
 * invoice.subscription to invoice.parent.subscription_details). Test mode builds the same shapes.
 */

const idOf = z
  .union([z.string(), z.object({ id: z.string() })])
  .transform((value) => (typeof value === "string" ? value : value.id));

const metadataSchema = z
  .record(z.string(), z.string())
  .nullish()
  .transform((value) => value ?? {});

export interface BillingMetadata {
  userId?: string;
  tier?: Tier;
  period?: BillingPeriod;
}

export function readMetadata(metadata: Record<string, string>): BillingMetadata {
  const tier = TIERS.find((candidate) => candidate === metadata.tier);
  const period = BILLING_PERIODS.find((candidate) => candidate === metadata.period);
  return { userId: metadata.userId, tier, period };
}

export const subscriptionObject = z.object({
  id: z.string(),
  customer: idOf,
  status: z.string(),
  metadata: metadataSchema,
  cancel_at_period_end: z.boolean().nullish(),
  cancel_at: z.number().nullish(),
  current_period_end: z.number().nullish(),
  pause_collection: z.object({ resumes_at: z.number().nullish() }).nullish(),
  items: z
    .object({
      data: z.array(
        z.object({
          id: z.string().nullish(),
          quantity: z.number().nullish(),
          current_period_end: z.number().nullish(),
          /** The seat item is known by its price's lookup key (billing/seat-item.ts). */
          price: z.object({ lookup_key: z.string().nullish() }).nullish(),
        }),
      ),
    })
    .nullish(),
});
export type SubscriptionObject = z.infer<typeof subscriptionObject>;

/** When the paid period ends: a scheduled cancel, else the current period's end. */
export function periodEnd(subscription: SubscriptionObject): Date | null {
  const seconds =
    subscription.cancel_at ??
    subscription.items?.data[0]?.current_period_end ??
    subscription.current_period_end;
  return seconds ? new Date(seconds * 1000) : null;
}

/** Statuses after which the subscription gives nothing. */
export const ENDED_STATUSES = new Set(["canceled", "unpaid", "incomplete_expired", "paused"]);

export const invoiceObject = z.object({
  id: z.string(),
  /** Cents actually paid, its currency (lower-case ISO) and the invoice's number, for receipts. */
  amount_paid: z.number().int().nullish(),
  currency: z.string().nullish(),
  number: z.string().nullish(),
  customer: idOf.nullish(),
  subscription: idOf.nullish(),
  parent: z.object({ subscription_details: z.object({ subscription: idOf }).nullish() }).nullish(),
});
export type InvoiceObject = z.infer<typeof invoiceObject>;

export function invoiceSubscriptionId(invoice: InvoiceObject): string | null {
  return invoice.parent?.subscription_details?.subscription ?? invoice.subscription ?? null;
}

export const checkoutSessionObject = z.object({
  id: z.string(),
  mode: z.string().nullish(),
  customer: idOf.nullish(),
  subscription: idOf.nullish(),
  client_reference_id: z.string().nullish(),
  payment_status: z.string().nullish(),
  metadata: metadataSchema,
});
export type CheckoutSessionObject = z.infer<typeof checkoutSessionObject>;

/** An event as Stripe sends it (and as test mode builds it). */
export interface BillingEvent {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  data: { object: unknown };
}
