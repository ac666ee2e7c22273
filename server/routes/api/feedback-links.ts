import { Router } from "@koa/router";
import type { Next } from "koa";
import { useFeedbackLinkInput } from "../../../shared/schemas/feedback-links";
import { signIn } from "../../auth/sessions";
import { useFeedbackLink } from "../../commands/use-feedback-link";
import { findFeedbackLink } from "../../queries/find-feedback-link";
import type { AppContext } from "../../context";
import { presentFeedbackLink } from "../../presenters/feedback-link";
import { LIMITS } from "../../security/rate-limiter";
import { type AreaRouter, withInput } from "../area-router";

/**
 * The Approve and Needs Work buttons of notification emails (docs/decisions.md, "Approve from
 * the inbox"). Public: the token is the authority. A GET only describes (mail scanners open
 * links); the decision is the POST that the page's button sends.
 */
const router: AreaRouter = new Router({ prefix: "/api/feedback-links" });

async function limit(ctx: AppContext, next: Next) {
  await ctx.services.rateLimiter.consume(`feedbackLinkPerIp:${ctx.ip}`, LIMITS.feedbackLinkPerIp);
  return next();
}

/** GET /api/feedback-links/:token: the file, the decision and the link's state. 404 unknown. */
router.get("/:token", limit, async (ctx) => {
  const found = await findFeedbackLink(ctx.services.db, ctx.params.token ?? "");
  ctx.body = presentFeedbackLink(found, ctx.services.clock.now());
});

/**
 * POST /api/feedback-links/:token {comment?}: takes the decision (as the app's PATCH
 * /api/messages/:id/feedback does) and uses the link up. A browser where nobody is signed in
 * is signed in as the client, as an invite link does, so the way into the conversation opens.
 */
router.post(
  "/:token",
  limit,
  withInput(useFeedbackLinkInput, async (ctx, input) => {
    const found = await findFeedbackLink(ctx.services.db, ctx.params.token ?? "");
    const viewer = ctx.state.user;
    const message = await useFeedbackLink(ctx.services, found, viewer, input);
    if (!viewer) await signIn(ctx, found.user);
    // This person's decision; with rule "everyone" the file may still wait for others.
    const approved = found.link.decision === "approve";
    ctx.body = {
      success: true,
      message: !approved
        ? "Feedback sent"
        : message.feedbackStatus === "approved"
          ? "File approved"
          : "Your approval was recorded",
      feedbackStatus: approved ? "approved" : "needs_work",
      clientId: found.client.id,
      messageId: message.id,
      signedIn: !viewer || viewer.id === found.user.id,
    };
  }),
);

export default router;
