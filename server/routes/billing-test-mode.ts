import { Router } from "@koa/router";
import { handleBillingEvent } from "../billing/handle-event";
import { TestCheckoutTokens } from "../billing/test-checkout-token";
import { checkoutPaidEvents, renewalEvents } from "../billing/test-mode-events";
import {
  testCheckoutPage,
  testModeMissingPage,
  testPaymentMethodPage,
  testRenewalPage,
} from "../billing/test-mode-pages";
import type { AppContext } from "../context";
import { badRequest, notFound } from "../errors";
import { User } from "../models";
import type { AreaRouter } from "./area-router";

/**
 * Test mode (BILLING_MODE=test): our own checkout page and renewal simulator. They build the
 * events Stripe would send and feed them to the webhook's handler, so every state change is
 * the one real Stripe would cause. In the stripe and off modes these paths do not exist.
 */
const router: AreaRouter = new Router({ prefix: "/billing" });

router.use(async (ctx, next) => {
  if (ctx.services.config.billingMode !== "test") throw notFound();
  const user = ctx.state.user;
  if (!user && ctx.method === "GET") return ctx.redirect("/auth");
  // Billing is an owner's own: client users and anonymous writes find nothing here.
  if (user?.role !== "owner") throw notFound();
  return next();
});

function html(ctx: AppContext, body: string, status = 200) {
  ctx.status = status;
  ctx.type = "text/html; charset=utf-8";
  ctx.set("Cache-Control", "no-store");
  ctx.body = body;
}

/** One text field of the posted form (parsed by koa-body: middlewares/request-body.ts). */
function formField(ctx: AppContext, name: string): string | null {
  if (!ctx.is("application/x-www-form-urlencoded")) throw badRequest("Expected a form");
  const fields = ctx.request.body;
  const value =
    fields && typeof fields === "object"
      ? Object.entries(fields).find(([key]) => key === name)?.[1]
      : undefined;
  return typeof value === "string" ? value : null;
}

/** The session named, if it is live and belongs to the signed-in owner. */
function ownSession(ctx: AppContext, token: string | null | undefined) {
  const tokens = new TestCheckoutTokens(ctx.services.config.sessionSecret);
  const session = tokens.read(token ?? undefined, ctx.services.clock.now());
  return session && session.userId === ctx.state.user!.id ? session : null;
}

router.get("/test-checkout", (ctx) => {
  const token = typeof ctx.query.session === "string" ? ctx.query.session : undefined;
  const session = ownSession(ctx, token);
  if (!session || !token) return html(ctx, testModeMissingPage(), 404);
  html(ctx, testCheckoutPage(session, token));
});

router.post("/test-checkout", async (ctx) => {
  const token = formField(ctx, "session");
  const session = ownSession(ctx, token);
  if (!session || !token) return html(ctx, testModeMissingPage(), 404);
  if (formField(ctx, "outcome") !== "pay") {
    // A declined card changes nothing, as in Stripe Checkout: the page says so and stays.
    return html(
      ctx,
      testCheckoutPage(session, token, "Payment Failed: your card was declined (test mode)."),
      402,
    );
  }
  const user = await User.query(ctx.services.db).findById(session.userId).throwIfNotFound();
  for (const event of checkoutPaidEvents(user, session, ctx.services.clock.now())) {
    await handleBillingEvent(ctx.services, event);
  }
  ctx.status = 303;
  ctx.redirect("/?subscription=success");
});

router.get("/test-mode", async (ctx) => {
  const user = await User.query(ctx.services.db).findById(ctx.state.user!.id).throwIfNotFound();
  html(ctx, testRenewalPage(user));
});

router.post("/test-mode/renewal", async (ctx) => {
  const outcome = formField(ctx, "outcome");
  if (outcome !== "succeed" && outcome !== "fail") throw badRequest("Choose succeed or fail");
  const user = await User.query(ctx.services.db).findById(ctx.state.user!.id).throwIfNotFound();
  if (!user.stripeSubscriptionId || user.accountTier === "free")
    return html(ctx, testRenewalPage(user), 409);
  for (const event of renewalEvents(user, outcome, ctx.services.clock.now())) {
    await handleBillingEvent(ctx.services, event);
  }
  ctx.status = 303;
  ctx.redirect("/");
});

router.get("/test-mode/payment-method", async (ctx) => {
  const user = await User.query(ctx.services.db).findById(ctx.state.user!.id).throwIfNotFound();
  html(ctx, testPaymentMethodPage(user));
});

/**
 * A saved card pays the failed invoice again, as the Customer Portal does: Stripe's
 * invoice.paid and subscription update go through the webhook's handler and end the grace.
 */
router.post("/test-mode/payment-method", async (ctx) => {
  const outcome = formField(ctx, "outcome");
  if (outcome !== "pay" && outcome !== "decline") throw badRequest("Choose pay or decline");
  const user = await User.query(ctx.services.db).findById(ctx.state.user!.id).throwIfNotFound();
  if (!user.stripeSubscriptionId || user.accountTier === "free")
    return html(ctx, testPaymentMethodPage(user), 409);
  if (outcome === "decline") {
    return html(
      ctx,
      testPaymentMethodPage(user, "Your card was declined (test mode). Try another card."),
      402,
    );
  }
  // Nothing due: the card is only saved, and /pricing must not say a payment went through.
  if (user.subscriptionStatus !== "past_due") {
    ctx.status = 303;
    return ctx.redirect("/pricing?payment-method=saved");
  }
  for (const event of renewalEvents(user, "succeed", ctx.services.clock.now())) {
    await handleBillingEvent(ctx.services, event);
  }
  ctx.status = 303;
  ctx.redirect("/pricing?payment-method=updated");
});

export default router;
