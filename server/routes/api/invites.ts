import { Router } from "@koa/router";
import { clientSignInInput, clientSignInLinkInput } from "../../../shared/schemas/clients";
import { inviteUrl, shortInviteUrl } from "../../auth/invite-tokens";
import { signIn } from "../../auth/sessions";
import { acceptInvite } from "../../commands/accept-invite";
import { clientSignIn } from "../../commands/client-sign-in";
import { createShortLink } from "../../commands/create-short-link";
import { reissueInvite } from "../../commands/reissue-invite";
import { requestClientSignInLink } from "../../commands/request-client-sign-in-link";
import { resolveShortLink } from "../../commands/resolve-short-link";
import type { AppContext } from "../../context";
import { withFeatures } from "../../billing/feature-tier";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { authorizedClient } from "../../policies/clients";
import { LIMITS } from "../../security/rate-limiter";
import { type AreaRouter, withInput } from "../area-router";
import { msg } from "../../../shared/i18n/msg";
import { readable } from "../../i18n/readable";

const router: AreaRouter = new Router({ prefix: "/api" });

const limit = (ctx: AppContext, key: string, which: keyof typeof LIMITS) =>
  ctx.services.rateLimiter.consume(`${which}:${key}`, LIMITS[which]);

/** A new invite link for the client; the old one dies. */
router.post("/clients/:id/invite", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  const client = await authorizedClient(ctx.services, actor, "reissueInvite", ctx.params.id);
  const token = await reissueInvite(ctx.services, actor, client);
  ctx.body = { inviteUrl: inviteUrl(ctx.services.config.appUrl, token), inviteToken: token };
});

/** The client's short link (paid plans), standing for the live invite token. */
router.post("/clients/:id/short-link", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  const client = await authorizedClient(
    ctx.services,
    withFeatures(ctx.services.config, actor),
    "createShortLink",
    ctx.params.id,
  );
  const { code, token } = await createShortLink(ctx.services, client);
  ctx.body = { shortUrl: shortInviteUrl(ctx.services.config.appUrl, code), inviteToken: token };
});

/** Public: a short code to the invite token it stands for now. */
router.get("/short-link/:code", async (ctx) => {
  await limit(ctx, ctx.ip, "shortLinkPerIp");
  ctx.body = { inviteToken: await resolveShortLink(ctx.services, ctx.params.code ?? "") };
});

/**
 * Public: uses the invite and signs this browser in as the client (a browser signed in as
 * anyone else is refused, 409; one signed in as that client stays as it is).
 */
router.post("/invite/:token", async (ctx) => {
  await limit(ctx, ctx.ip, "invitePerIp");
  const signedIn = ctx.state.user;
  const { client, user } = await acceptInvite(ctx.services, ctx.params.token ?? "", signedIn);
  if (signedIn?.id !== user.id) await signIn(ctx, user);
  ctx.body = { success: true, clientId: client.id, message: readable(ctx, msg("Invite accepted")) };
});

/** Public: mails a sign-in link to a joined client; answers alike for any address. */
router.post(
  "/client-sign-in-link",
  withInput(clientSignInLinkInput, async (ctx, { email }) => {
    await limit(ctx, ctx.ip, "mailPerIp");
    await limit(ctx, email, "mailPerAddress");
    requestClientSignInLink(ctx.services, email);
    ctx.body = {
      success: true,
      message: readable(
        ctx,
        msg("If that address belongs to a conversation, a sign-in link is on its way."),
      ),
    };
  }),
);

/** Public: uses a mailed sign-in link (from the button on the page it opens). */
router.post(
  "/client-sign-in",
  withInput(clientSignInInput, async (ctx, { token }) => {
    await limit(ctx, ctx.ip, "codeAttemptsPerIp");
    const { client, user } = await clientSignIn(ctx.services, token);
    await signIn(ctx, user);
    ctx.body = { success: true, clientId: client.id, message: readable(ctx, msg("Signed in")) };
  }),
);

export default router;
