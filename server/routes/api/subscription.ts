import { Router } from "@koa/router";
import {
  type BillingActionAnswer,
  changePlanInput,
  createCheckoutInput,
  pauseAccountInput,
  paymentMethodInput,
  startCancellationInput,
} from "../../../shared/schemas/billing";
import { type ChangeSeatsAnswer, changeSeatsInput } from "../../../shared/schemas/seats";
import { TIER_CONFIG } from "../../../shared/tiers";
import { billingEnabled } from "../../billing/billing-enabled";
import { featureTier } from "../../billing/feature-tier";
import { billingProvider } from "../../billing/provider";
import { applyRetentionDiscount } from "../../commands/apply-retention-discount";
import { changePlan } from "../../commands/change-plan";
import { changeSeats } from "../../commands/change-seats";
import { completeCancellation } from "../../commands/complete-cancellation";
import { createCheckout } from "../../commands/create-checkout";
import { keepAccount } from "../../commands/keep-account";
import { openPaymentMethod } from "../../commands/open-payment-method";
import { pauseAccount } from "../../commands/pause-account";
import { startCancellation } from "../../commands/start-cancellation";
import type { AppContext } from "../../context";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import type { User } from "../../models";
import { billingPolicy } from "../../policies/billing";
import { presentSeats } from "../../presenters/seats";
import { presentSubscriptionStatus } from "../../presenters/subscription";
import { seatUsage } from "../../queries/team-invites";
import { workspaceOwnerOf } from "../../queries/workspace-owner";
import { type AreaRouter, withInput } from "../area-router";

const router: AreaRouter = new Router({ prefix: "/api/subscription" });
router.use(authenticated);
router.use(billingEnabled);

const dateText = (date: Date | null) =>
  date
    ? new Date(date).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" })
    : "the end of your billing period";

function answer(ctx: AppContext, user: User, message: string): BillingActionAnswer {
  return {
    success: true,
    message,
    status: presentSubscriptionStatus(user, billingProvider(ctx.services).testMode),
  };
}

router.get("/status", async (ctx) => {
  const actor = currentUser(ctx);
  billingPolicy.authorize(actor, "readStatus");
  // Staff see their workspace's plan (issue 26): its owner's.
  ctx.body = presentSubscriptionStatus(
    await workspaceOwnerOf(ctx.services.db, actor),
    billingProvider(ctx.services).testMode,
  );
});

/** The workspace's seats (issue 26), for all its staff: the Team tab shows how many are used. */
async function seatsOf(ctx: AppContext, owner: User) {
  const { db, config, clock } = ctx.services;
  const usage = await seatUsage(db, owner.id, clock.now());
  return presentSeats(
    owner,
    featureTier(config, owner.accountTier),
    usage,
    billingPolicy.can(owner, "changeSeats"),
  );
}

router.get("/seats", async (ctx) => {
  const actor = currentUser(ctx);
  billingPolicy.authorize(actor, "readStatus");
  ctx.body = await seatsOf(ctx, await workspaceOwnerOf(ctx.services.db, actor));
});

router.put(
  "/seats",
  withInput(changeSeatsInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const before = await workspaceOwnerOf(ctx.services.db, actor);
    const owner = await changeSeats(ctx.services, actor, input);
    const seats = await seatsOf(ctx, owner);
    const added = owner.extraSeats - before.extraSeats;
    const answer: ChangeSeatsAnswer = {
      success: true,
      message:
        added > 0
          ? `You now have ${seats.total} seats. The added ${added === 1 ? "seat is" : "seats are"} prorated on your next invoice.`
          : added < 0
            ? `You now have ${seats.total} seats. Seats given back are not refunded: your next bill is lower.`
            : `You have ${seats.total} seats.`,
      seats,
    };
    ctx.body = answer;
  }),
);

router.post(
  "/create-checkout",
  withInput(createCheckoutInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    billingPolicy.authorize(actor, "checkout");
    ctx.body = { url: await createCheckout(ctx.services, actor, input) };
  }),
);

router.post(
  "/change-plan",
  withInput(changePlanInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    billingPolicy.authorize(actor, "changeSubscription");
    // A new billing interval is invoiced (and paid) at once; the same interval is prorated.
    const periodChanged =
      (actor.billingPeriod === "annual" ? "annual" : "monthly") !== input.period;
    const user = await changePlan(ctx.services, actor, input);
    const plan = TIER_CONFIG[input.tier].name;
    ctx.body = answer(
      ctx,
      user,
      `You're now on the ${plan} plan, billed ${input.period === "annual" ? "annually" : "monthly"}. ${
        periodChanged
          ? "The difference, less credit for your unused time, was charged today."
          : "The difference is prorated on your next invoice."
      }`,
    );
  }),
);

router.post(
  "/payment-method",
  withInput(paymentMethodInput, async (ctx) => {
    const actor = currentUser(ctx);
    billingPolicy.authorize(actor, "changeSubscription");
    ctx.body = { url: await openPaymentMethod(ctx.services, actor) };
  }),
);

router.post(
  "/start-cancellation",
  withInput(startCancellationInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    billingPolicy.authorize(actor, "changeSubscription");
    const user = await startCancellation(ctx.services, actor, input);
    ctx.body = answer(ctx, user, "Thanks for telling us why.");
  }),
);

router.post("/apply-discount", async (ctx) => {
  const actor = currentUser(ctx);
  billingPolicy.authorize(actor, "changeSubscription");
  const { user, dollars } = await applyRetentionDiscount(ctx.services, actor);
  ctx.body = answer(ctx, user, `$${dollars} off your next bill has been applied.`);
});

router.post(
  "/pause-account",
  withInput(pauseAccountInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    billingPolicy.authorize(actor, "changeSubscription");
    const user = await pauseAccount(ctx.services, actor, input);
    ctx.body = answer(ctx, user, `Your account is paused until ${dateText(user.pausedUntil)}.`);
  }),
);

router.post("/complete-cancellation", async (ctx) => {
  const actor = currentUser(ctx);
  billingPolicy.authorize(actor, "changeSubscription");
  const user = await completeCancellation(ctx.services, actor);
  ctx.body = answer(
    ctx,
    user,
    `Your subscription is canceled. You keep your plan until ${dateText(user.subscriptionEndDate)}.`,
  );
});

router.post("/keep-account", async (ctx) => {
  const actor = currentUser(ctx);
  billingPolicy.authorize(actor, "keepAccount");
  const user = await keepAccount(ctx.services, actor);
  ctx.body = answer(ctx, user, "We're glad you're staying!");
});

export default router;
