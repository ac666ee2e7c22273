import { Router } from "@koa/router";
import {
  deletePushSubscriptionInput,
  savePushSubscriptionInput,
} from "../../../shared/schemas/push";
import {
  deletePushSubscription,
  savePushSubscription,
} from "../../commands/save-push-subscription";
import { unauthorized } from "../../errors";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { pushPolicy } from "../../policies/push";
import { guardOptions } from "../../push/push-sender";
import { type AreaRouter, withInput } from "../area-router";
import { msg } from "../../../shared/i18n/msg";
import { readable } from "../../i18n/readable";

/** Web push: this browser's subscription (Settings, "Notifications on this device"). */
const router: AreaRouter = new Router({ prefix: "/api/push" });
router.use(authenticated);

/** The VAPID public key, the browser's applicationServerKey. */
router.get("/public-key", (ctx) => {
  ctx.body = { publicKey: ctx.services.config.vapid.publicKey };
});

router.post(
  "/subscriptions",
  withInput(savePushSubscriptionInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    pushPolicy.authorize(actor, "subscribe", {
      endpoint: input.endpoint,
      guard: guardOptions(ctx.services.config),
    });
    const sessionHash = ctx.state.session?.idHash;
    if (!sessionHash) throw unauthorized();
    await savePushSubscription(ctx.services, actor, sessionHash, input);
    ctx.status = 201;
    ctx.body = {
      success: true,
      message: readable(ctx, msg("Notifications are on for this device")),
    };
  }),
);

router.delete(
  "/subscriptions",
  withInput(deletePushSubscriptionInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    pushPolicy.authorize(actor, "unsubscribe");
    await deletePushSubscription(ctx.services, actor, input);
    ctx.body = {
      success: true,
      message: readable(ctx, msg("Notifications are off for this device")),
    };
  }),
);

export default router;
