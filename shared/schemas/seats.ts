import { z } from "zod";
import { BILLING_PERIODS, MAX_EXTRA_SEATS } from "../tiers";
import { successResponseSchema } from "./common";
import { msg } from "../i18n/msg";

/**
 * GET /api/subscription/seats (issue 26, seats): a workspace's seats. `used` are its people
 * (the owner included), `pending` its open invites, which hold a seat too; `total` is
 * `included + extra`. Prices are whole US dollars per seat and period.
 */
export const seatsSchema = z.strictObject({
  included: z.number().int(),
  extra: z.number().int(),
  used: z.number().int(),
  pending: z.number().int(),
  total: z.number().int(),
  pricePerSeat: z.strictObject({ month: z.number(), year: z.number() }),
  /** The interval extra seats are billed at (the subscription's), null without one. */
  billingPeriod: z.enum(BILLING_PERIODS).nullable(),
  /** Seats can be bought here: the Agency plan with a live subscription and billing on. */
  canBuy: z.boolean(),
});
export type Seats = z.infer<typeof seatsSchema>;

/** PUT /api/subscription/seats: the number of seats bought on top of the included ones. */
export const changeSeatsInput = z.strictObject({
  extra: z
    .number({ error: msg("extra must be a whole number of seats") })
    .int({ error: msg("extra must be a whole number of seats") })
    .min(0, { error: msg("extra cannot be negative") })
    .max(MAX_EXTRA_SEATS, {
      // MAX_EXTRA_SEATS written out: a literal for the extractor (written-out-limits.test.ts).
      error: msg("At most 100 extra seats: write to us for more"),
    }),
});
export type ChangeSeatsInput = z.infer<typeof changeSeatsInput>;

export const changeSeatsResponse = successResponseSchema.extend({ seats: seatsSchema });
export type ChangeSeatsAnswer = z.infer<typeof changeSeatsResponse>;
