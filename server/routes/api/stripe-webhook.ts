import { Router } from "@koa/router";
import Stripe from "stripe";
import { readBillingEvent } from "../../billing/event-shape";
import { handleBillingEvent } from "../../billing/handle-event";
import { badRequest, notFound } from "../../errors";
import { bodyParser } from "../../middlewares/request-body";
import type { AreaRouter } from "../area-router";

/** Stripe's own limit: events older than five minutes are refused (replayed captures). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

export const STRIPE_WEBHOOK_PATH = "/api/stripe/webhook";

/**
 * The body as the exact text Stripe signed, whatever its type: koa-body's text mode, so that
 * nothing is parsed before the signature is checked (app.ts keeps the JSON parser off this
 * path). Stripe's events may be larger than the app's 64 KB forms.
 */
const rawText = bodyParser({
  json: false,
  urlencoded: false,
  text: true,
  textTypes: ["*/*"],
  textLimit: "1mb",
});

const router: AreaRouter = new Router();

/**
 * Stripe's webhook. The signature covers the exact body; a missing or wrong signature or an
 * old timestamp answers 400 and changes nothing. Each event id is processed once
 * (handleBillingEvent).
 */
router.post(STRIPE_WEBHOOK_PATH, rawText, async (ctx) => {
  const secret = ctx.services.config.stripe?.webhookSecret;
  if (!secret) throw notFound();
  const signature = ctx.get("Stripe-Signature");
  if (!signature) throw badRequest("Missing Stripe-Signature header");
  const raw = typeof ctx.request.body === "string" ? ctx.request.body : "";
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
    ctx.services.logger.warn(
      { problem: checked.problem },
      "stripe webhook: malformed event refused",
    );
    throw badRequest("Malformed event: {{problem}}", { problem: checked.problem });
  }
  const handled = await handleBillingEvent(ctx.services, checked.event);
  ctx.body = { received: true, duplicate: !handled.firstTime };
});

export default router;
