import type { Seats } from "../../shared/schemas/seats";
import { EXTRA_SEAT_PRICE, SEAT_TIER, SEATS_INCLUDED, type Tier } from "../../shared/tiers";
import type { User } from "../models";

/** A workspace's seats as GET /api/subscription/seats shows them, from its owner's row. */
export function presentSeats(
  owner: User,
  tier: Tier,
  usage: { members: number; pending: number },
  canBuy: boolean,
): Seats {
  const included = SEATS_INCLUDED[tier];
  const extra = tier === SEAT_TIER ? owner.extraSeats : 0;
  return {
    included,
    extra,
    used: usage.members,
    pending: usage.pending,
    total: included + extra,
    pricePerSeat: { month: EXTRA_SEAT_PRICE.monthly, year: EXTRA_SEAT_PRICE.annual },
    billingPeriod:
      owner.billingPeriod === "annual" || owner.billingPeriod === "monthly"
        ? owner.billingPeriod
        : null,
    canBuy,
  };
}
