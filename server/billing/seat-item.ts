import { type BillingPeriod, seatPriceCents } from "../../shared/tiers";
import type { SubscriptionObject } from "./stripe-objects";

/**
 * Extra seats are the second item of an Agency subscription (issue 26): one recurring price per
 * interval, its quantity the number of seats. The item is known by its price's lookup key,
 * which carries the amount so that a price change in shared/tiers.ts makes a new price.
 */
const SEAT_LOOKUP_PREFIX = "clientdesk_seat_";

export const seatLookupKey = (period: BillingPeriod) =>
  `${SEAT_LOOKUP_PREFIX}${period}_${seatPriceCents(period)}`;

type Item = NonNullable<SubscriptionObject["items"]>["data"][number];

export const isSeatItem = (item: Item) =>
  item.price?.lookup_key?.startsWith(SEAT_LOOKUP_PREFIX) ?? false;

/** The seats a subscription bills for (0 without a seat item). */
export function seatQuantity(subscription: SubscriptionObject): number {
  const item = subscription.items?.data.find(isSeatItem);
  return item ? Math.max(0, item.quantity ?? 0) : 0;
}
