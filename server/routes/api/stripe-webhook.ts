import getRawBody from "raw-body";
import Stripe from "stripe";
import { readBillingEvent } from "../../billing/event-shape";
import { handleBillingEvent } from "../../billing/handle-event";
import { badRequest, notFound } from "../../errors";
import { createRouter } from "../router";

/** Stripe's own limit: events older than five minutes are refused (replayed captures). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

const router = createRouter();

/**
 * Stripe's webhook. The body is read raw (json-body skips this path) because the signature
 * covers the exact bytes; a missing or wrong signature or an old timestamp answers 400 and
 * changes nothing. Each event id is processed once (handleBillingEvent).
 */
router.post("/api/stripe/webhook", async (ctx) => {
  const secret = ctx.services.config.stripe?.webhookSecret;
  if (!secret) throw notFound();
  const signature = ctx.get("Stripe-Signature");
  if (!signature) throw badRequest("Missing Stripe-Signature header");
  let raw: Buffer;
  try {
    raw = await getRawBody(ctx.req, { limit: "1mb" });
  } catch {
    throw badRequest("Could not read the request body");
  }
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(raw, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
  } catch (error) {
    ctx.services.logger.warn({ err: error }, "stripe webhook refused");
    // Signed correctly but not JSON: the signature was fine, the body was not.
    if (!(error instanceof Stripe.errors.StripeSignatureVerificationError))
      throw badRequest("Malformed event: the body is not JSON");
    throw badRequest("Invalid Stripe signature");
  }
  const checked = readBillingEvent(event);
  if (checked.problem !== undefined) {
    ctx.services.logger.warn({ problem: checked.problem }, "stripe webhook: malformed event refused");
    throw badRequest(`Malformed event: ${checked.problem}`);
  }
  const handled = await handleBillingEvent(ctx.services, checked.event);
  ctx.body = { received: true, duplicate: !handled.firstTime };
});

export default router;
