import { z } from "zod";
import { BILLING_MODES } from "../billing-mode";
import { BILLING_PERIODS, TIERS } from "../tiers";
import { successResponseSchema } from "./common";
import { multiLineText } from "./text";
import { msg } from "../i18n/msg";

/** Spec section 9. */
export const CANCELLATION_REASONS = [
  "too_expensive",
  "not_using",
  "missing_features",
  "found_alternative",
  "technical_issues",
  "no_longer_need",
  "billing_issues",
  "other",
] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

export const PAUSE_MONTHS = [1, 2, 3] as const;

export const PAID_TIERS = ["pro", "agency"] as const;
export type PaidTier = (typeof PAID_TIERS)[number];

export const createCheckoutInput = z.strictObject({
  tier: z.enum(PAID_TIERS, { error: msg("Choose the Pro or Agency plan") }),
  period: z.enum(BILLING_PERIODS, { error: msg("Choose monthly or annual billing") }),
});
export type CreateCheckoutInput = z.infer<typeof createCheckoutInput>;

/** POST /api/subscription/change-plan: another paid plan or period, prorated, same subscription. */
export const changePlanInput = createCheckoutInput;
export type ChangePlanInput = z.infer<typeof changePlanInput>;

export const startCancellationInput = z
  .strictObject({
    reason: z.enum(CANCELLATION_REASONS, { error: msg("Please select a reason") }),
    customReason: multiLineText({
      max: 1000,
      requiredMessage: msg("Details is required"),
      tooLongMessage: msg("Please keep the details under 1000 characters"),
    })
      .trim()
      .optional(),
  })
  .refine((value) => value.reason !== "other" || Boolean(value.customReason), {
    message: msg("Please provide details"),
    path: ["customReason"],
  });
export type StartCancellationInput = z.infer<typeof startCancellationInput>;

export const pauseAccountInput = z.strictObject({
  pauseMonths: z.union([z.literal(1), z.literal(2), z.literal(3)], {
    error: msg("Pause for 1, 2 or 3 months"),
  }),
});
export type PauseAccountInput = z.infer<typeof pauseAccountInput>;

/** GET /api/subscription/status: the spec's four fields, plus what the cancellation flow shows. */
export const subscriptionStatusSchema = z.strictObject({
  accountTier: z.enum(TIERS),
  subscriptionStatus: z.string(),
  subscriptionEndDate: z.string().nullable(),
  paymentFailureGraceEnd: z.string().nullable(),
  billingPeriod: z.enum(BILLING_PERIODS).nullable(),
  cancelAtPeriodEnd: z.boolean(),
  pausedUntil: z.string().nullable(),
  retentionDiscountUsed: z.boolean(),
  /** No Stripe keys: checkout and renewals are simulated on /billing/test-checkout. */
  testMode: z.boolean(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusSchema>;

/** Answer of the cancellation-flow calls. */
export const billingActionResponse = successResponseSchema.extend({
  status: subscriptionStatusSchema,
});
export type BillingActionAnswer = z.infer<typeof billingActionResponse>;

/** POST /api/subscription/create-checkout: where the browser goes to pay. */
export const checkoutResponse = z.strictObject({ url: z.string() });
export type CheckoutResponse = z.infer<typeof checkoutResponse>;

/**
 * POST /api/subscription/payment-method (no body): where the owner updates the card and pays
 * a failed invoice again (Stripe's Customer Portal, or test mode's own page).
 */
export const paymentMethodInput = z.strictObject({});
export const paymentMethodResponse = z.strictObject({ url: z.string() });
export type PaymentMethodResponse = z.infer<typeof paymentMethodResponse>;

/** GET /api/billing-mode (public). */
export const billingModeResponse = z.strictObject({ mode: z.enum(BILLING_MODES) });
export type BillingModeAnswer = z.infer<typeof billingModeResponse>;

/** POST /api/stripe/webhook: Stripe only looks at the status; duplicate says it was seen before. */
export const stripeWebhookResponse = z.strictObject({
  received: z.literal(true),
  duplicate: z.boolean(),
});
