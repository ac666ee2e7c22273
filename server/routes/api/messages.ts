import { Router } from "@koa/router";
import {
  markReadInput,
  messagePageQuery,
  sendMessageInput,
} from "../../../shared/schemas/messages";
import { loadMessagePage, loadMessageView } from "../../queries/load-conversation";
import { markRead } from "../../commands/mark-read";
import { scheduleMessage } from "../../commands/scheduled-messages";
import { sendMessage } from "../../commands/send-message";
import { badRequest } from "../../errors";
import { idempotentMessagePost } from "./idempotent-message-post";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { authorizedClient } from "../../policies/clients";
import { visibilitiesFor } from "../../policies/conversation-sides";
import { presentMessage, presentSentMessage } from "../../presenters/message";
import { presentScheduledMessage } from "../../presenters/scheduled-message";
import { type AreaRouter, withInput } from "../area-router";
import { parseOrThrow } from "../../validate";
import { msg } from "../../../shared/i18n/msg";
import { readable } from "../../i18n/readable";

const router: AreaRouter = new Router({ prefix: "/api/clients/:id" });
router.use(authenticated);

/**
 * Oldest to newest: the newest page, `before` (older page), or `after` (catch-up).
 * X-Has-More says whether more lie beyond the page in the direction asked (older for the
 * newest page and `before`, newer for `after`).
 */
router.get("/messages", async (ctx) => {
  const actor = currentUser(ctx);
  const client = await authorizedClient(ctx.services, actor, "readMessages", ctx.params.id);
  const query = parseOrThrow(messagePageQuery, ctx.query);
  if (query.before && query.after) throw badRequest("Use either before or after, not both");
  const { messages, hasMore } = await loadMessagePage(
    ctx.services.db,
    client.id,
    query,
    visibilitiesFor(actor.role),
  );
  const view = await loadMessageView(ctx.services.db, actor, client);
  ctx.set("X-Has-More", String(hasMore));
  ctx.body = messages.map((message) => presentMessage(message, view));
});

router.post(
  "/messages",
  idempotentMessagePost,
  withInput(sendMessageInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const client = await authorizedClient(ctx.services, actor, "sendMessage", ctx.params.id);
    ctx.status = 201;
    if (input.sendAt) {
      // Scheduled send (issue 28): the answer is the scheduled message, not yet in the conversation.
      const { sendAt, content, visibility } = input;
      const scheduled = await scheduleMessage(ctx.services, actor, client, {
        content,
        visibility,
        sendAt,
      });
      ctx.body = presentScheduledMessage(scheduled);
      return;
    }
    const message = await sendMessage(ctx.services, actor, client, input);
    ctx.body = presentSentMessage(message, actor, client);
  }),
);

router.post(
  "/read",
  withInput(markReadInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const client = await authorizedClient(ctx.services, actor, "markRead", ctx.params.id);
    await markRead(ctx.services, actor, client, input.messageId);
    ctx.body = { success: true, message: readable(ctx, msg("Marked as read")) };
  }),
);

export default router;
