import { Router } from "@koa/router";
import {
  emailOnlyInput,
  loginInput,
  registerInput,
  resetPasswordInput,
  verifyEmailInput,
} from "../../../shared/schemas/auth";
import { hashPassword } from "../../auth/passwords";
import { signIn, signOut } from "../../auth/sessions";
import { signUpCookie } from "../../auth/sign-up-cookie";
import { authenticate } from "../../commands/authenticate";
import { registerOwner } from "../../commands/register-owner";
import { requestPasswordReset } from "../../commands/request-password-reset";
import { resendVerification } from "../../commands/resend-verification";
import { resetPassword } from "../../commands/reset-password";
import { verifyEmail } from "../../commands/verify-email";
import type { AppContext } from "../../context";
import { HttpError } from "../../errors";
import { withFeatures } from "../../billing/feature-tier";
import { currentUser } from "../../middlewares/authenticated";
import { Client } from "../../models";
import { presentUser } from "../../presenters/user";
import { personLanguage, requestLanguage, signUpLanguage } from "../../i18n/request-language";
import { LIMITS } from "../../security/rate-limiter";
import { countSignInAttempt, rememberDevice } from "../../security/sign-in-throttle";
import { type AreaRouter, withInput } from "../area-router";
import { msg } from "../../../shared/i18n/msg";
import { readable } from "../../i18n/readable";

const router: AreaRouter = new Router({ prefix: "/api" });

const limit = (ctx: AppContext, key: string, which: keyof typeof LIMITS) =>
  ctx.services.rateLimiter.consume(`${which}:${key}`, LIMITS[which]);

router.post(
  "/register",
  withInput(registerInput, async (ctx, body) => {
    await limit(ctx, ctx.ip, "registerPerIp");
    await limit(ctx, body.email, "mailPerAddress");
    // The same work for every address before the answer; the rest after it (register-owner.ts).
    const signUp = {
      email: body.email,
      fullName: body.fullName,
      passwordHash: await hashPassword(body.password),
    };
    signUpCookie(ctx).remember(signUp);
    registerOwner(ctx.services, signUp, signUpLanguage(ctx));
    ctx.status = 201;
    ctx.body = { requiresVerification: true, email: body.email };
  }),
);

router.post(
  "/login",
  withInput(loginInput, async (ctx, body) => {
    await limit(ctx, ctx.ip, "signInPerIp");
    const attempt = await countSignInAttempt(ctx, body.username);
    try {
      const user = await authenticate(ctx.services.db, body);
      await attempt.succeeded(user);
      await signIn(ctx, user, "password");
      ctx.body = presentUser(
        withFeatures(ctx.services.config, user),
        await personLanguage(ctx, user),
        await Client.idOfUser(ctx.services.db, user),
      );
    } catch (error) {
      if (error instanceof HttpError && error.status === 403) await attempt.forget();
      throw error;
    }
  }),
);

router.post("/logout", async (ctx) => {
  await signOut(ctx);
  ctx.body = { success: true, message: readable(ctx, msg("Signed out")) };
});

// currentUser answers 401 when nobody is signed in; an owner (most calls) needs no query.
router.get("/user", async (ctx) => {
  const user = currentUser(ctx);
  ctx.body = presentUser(
    withFeatures(ctx.services.config, user),
    await personLanguage(ctx, user),
    await Client.idOfUser(ctx.services.db, user),
  );
});

router.post(
  "/verify-email",
  withInput(verifyEmailInput, async (ctx, body) => {
    await limit(ctx, ctx.ip, "codeAttemptsPerIp");
    const signUp = signUpCookie(ctx);
    const user = await verifyEmail(ctx.services, body, signUp.read(body.email));
    signUp.clear();
    rememberDevice(ctx, user);
    await signIn(ctx, user);
    ctx.body = {
      success: true,
      message: readable(ctx, msg("Email verified successfully!")),
      user: presentUser(withFeatures(ctx.services.config, user), await personLanguage(ctx, user)),
    };
  }),
);

router.post(
  "/resend-verification",
  withInput(emailOnlyInput, async (ctx, { email }) => {
    await limit(ctx, ctx.ip, "mailPerIp");
    await limit(ctx, email, "mailPerAddress");
    resendVerification(ctx.services, email, requestLanguage(ctx));
    ctx.body = {
      success: true,
      message: readable(
        ctx,
        msg("If this address is waiting for verification, a new code is on its way."),
      ),
    };
  }),
);

router.post(
  "/forgot-password",
  withInput(emailOnlyInput, async (ctx, { email }) => {
    await limit(ctx, ctx.ip, "mailPerIp");
    await limit(ctx, email, "mailPerAddress");
    requestPasswordReset(ctx.services, email, requestLanguage(ctx));
    ctx.body = {
      success: true,
      message: readable(
        ctx,
        msg("If an account exists for this email, a reset code is on its way."),
      ),
    };
  }),
);

router.post(
  "/reset-password",
  withInput(resetPasswordInput, async (ctx, body) => {
    await limit(ctx, ctx.ip, "codeAttemptsPerIp");
    await resetPassword(ctx.services, body);
    ctx.body = {
      success: true,
      message: readable(ctx, msg("Your password has been reset. You can now sign in.")),
    };
  }),
);

export default router;
