import { Router } from "@koa/router";
import {
  changePasswordInput,
  colorSchemeInput,
  deleteAccountInput,
  notificationSettingsInput,
  passwordConfirmationInput,
  updateProfileInput,
} from "../../../shared/schemas/user";
import { signIn, signOut } from "../../auth/sessions";
import { changePassword } from "../../commands/change-password";
import { deleteAccount } from "../../commands/delete-account";
import { signOutEverywhere } from "../../commands/sign-out-everywhere";
import {
  updateColorScheme,
  updateNotificationSettings,
  updateProfile,
} from "../../commands/update-user-settings";
import { withFeatures } from "../../billing/feature-tier";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { accountPolicy } from "../../policies/account";
import { loadAccountTier } from "../../queries/account-tier";
import { presentUser } from "../../presenters/user";
import { personLanguage } from "../../i18n/request-language";
import type { Limit } from "../../security/rate-limiter";
import { type AreaRouter, withInput } from "../area-router";
import { msg } from "../../../shared/i18n/msg";
import { readable } from "../../i18n/readable";

const router: AreaRouter = new Router({ prefix: "/api/user" });

/** Password guesses through account deletion or signing out everywhere: as few as a person needs. */
const DELETE_ACCOUNT_ATTEMPTS: Limit = { points: 10, windowMs: 15 * 60_000 };
router.use(authenticated);

router.patch(
  "/profile",
  withInput(updateProfileInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    accountPolicy.authorize(actor, "updateProfile");
    const user = await updateProfile(ctx.services, actor, input);
    ctx.body = {
      success: true,
      message: readable(ctx, msg("Profile updated successfully")),
      user: presentUser(withFeatures(ctx.services.config, user), await personLanguage(ctx, user)),
    };
  }),
);

router.patch(
  "/password",
  withInput(changePasswordInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    accountPolicy.authorize(actor, "changePassword");
    await changePassword(ctx.services, actor, ctx.state.session, input);
    // Every session ended with the change; this browser gets a fresh one.
    ctx.state.session = undefined;
    await signIn(ctx, actor);
    ctx.body = { success: true, message: readable(ctx, msg("Password updated successfully")) };
  }),
);

router.patch(
  "/notification-settings",
  withInput(notificationSettingsInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    accountPolicy.authorize(actor, "updateNotificationSettings");
    const user = await updateNotificationSettings(ctx.services.db, actor, input);
    ctx.body = {
      success: true,
      message: readable(ctx, msg("Notification settings updated successfully")),
      user: presentUser(withFeatures(ctx.services.config, user), await personLanguage(ctx, user)),
    };
  }),
);

router.patch(
  "/color-scheme",
  withInput(colorSchemeInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    accountPolicy.authorize(withFeatures(ctx.services.config, actor), "updateColorScheme");
    const user = await updateColorScheme(ctx.services, actor, input);
    ctx.body = {
      success: true,
      message: readable(ctx, msg("Color scheme updated successfully")),
      user: presentUser(withFeatures(ctx.services.config, user), await personLanguage(ctx, user)),
    };
  }),
);

/** POST /api/user/delete {password}: the owner deletes their account and everything in it. */
router.post(
  "/delete",
  withInput(deleteAccountInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    accountPolicy.authorize(actor, "deleteAccount");
    await ctx.services.rateLimiter.consume(`delete-account:${actor.id}`, DELETE_ACCOUNT_ATTEMPTS);
    await deleteAccount(ctx.services, actor, ctx.state.session, input);
    // The session row went with the account: this clears the cookie.
    await signOut(ctx);
    ctx.body = { success: true, message: readable(ctx, msg("Your account has been deleted")) };
  }),
);

/** POST /api/user/sign-out-everywhere {password}: ends every other session of the account. */
router.post(
  "/sign-out-everywhere",
  withInput(passwordConfirmationInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    accountPolicy.authorize(actor, "signOutEverywhere");
    await ctx.services.rateLimiter.consume(
      `sign-out-everywhere:${actor.id}`,
      DELETE_ACCOUNT_ATTEMPTS,
    );
    const ended = await signOutEverywhere(ctx.services, actor, ctx.state.session, input);
    ctx.body = {
      success: true,
      message: readable(ctx, msg("Signed out everywhere else")),
      endedSessions: ended,
    };
  }),
);

router.get("/account-tier", async (ctx) => {
  const actor = currentUser(ctx);
  accountPolicy.authorize(actor, "readAccountTier");
  ctx.body = await loadAccountTier(ctx.services, actor);
});

export default router;
