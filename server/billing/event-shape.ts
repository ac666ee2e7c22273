import { z } from "zod";
import { SUBSCRIPTION_EVENTS } from "./handle-event";
import {
  type BillingEvent,
  checkoutSessionObject,
  invoiceObject,
  subscriptionObject,
} from "./stripe-objects";

/** Ids and types as Stripe writes them: short printable ASCII (they become database keys). */
const token = z.string().regex(/^[!-~]{1,255}$/);

const envelope = z.object({
  id: token,
  type: token,
  created: z.number().int().nonnegative(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/** The object schema that handleBillingEvent parses for an event of this type, if any. */
function objectSchemaFor(type: string): z.ZodType | null {
  if (type === "checkout.session.completed" || type === "checkout.session.async_payment_succeeded")
    return checkoutSessionObject;
  if (SUBSCRIPTION_EVENTS.has(type)) return subscriptionObject;
  if (
    type === "invoice.payment_failed" ||
    type === "invoice.paid" ||
    type === "invoice.payment_succeeded"
  )
    return invoiceObject;
  return null;
}

/**
 * A signed webhook body checked for the shape billing reads, before anything is recorded: a
 * correctly signed event that is not one (a test tool, an API version we do not know) is the
 * sender's mistake and answers 400, instead of failing half-way as a 500.
 */
export function readBillingEvent(
  value: unknown,
): { event: BillingEvent; problem?: undefined } | { problem: string } {
  const parsed = envelope.safeParse(value);
  if (!parsed.success) return { problem: describe(parsed.error, "event") };
  const schema = objectSchemaFor(parsed.data.type);
  const object = schema?.safeParse(parsed.data.data.object);
  if (object && !object.success) return { problem: describe(object.error, "data.object") };
  return { event: parsed.data };
}

function describe(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  const path = issue?.path.length ? `${where}.${issue.path.join(".")}` : where;
  return `${path}: ${issue?.message ?? "invalid"}`;
}
