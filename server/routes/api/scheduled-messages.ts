import { Router } from "@koa/router";
import { updateScheduledMessageInput } from "../../../shared/schemas/scheduled-messages";
import {
  cancelScheduledMessage,
  sendScheduledMessage,
  updateScheduledMessage,
} from "../../commands/scheduled-messages";
import { notFound } from "../../errors";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { authorizedClient } from "../../policies/clients";
import { findVisibleScheduled, scheduledMessagesPolicy } from "../../policies/scheduled-messages";
import { presentSentMessage } from "../../presenters/message";
import { presentScheduledMessage } from "../../presenters/scheduled-message";
import { listScheduledMessages } from "../../queries/scheduled-messages";
import { parseOrThrow } from "../../validate";
import { FALLS_THROUGH } from "../mount-routes";
import type { AreaRouter } from "../area-router";
import { msg } from "../../../shared/i18n/msg";
import { readable } from "../../i18n/readable";

/**
 * Scheduled send (issue 28, point 2). Scheduling is POST /api/clients/{id}/messages with
 * `sendAt` (messages.ts). PATCH and DELETE /api/messages/{id} answer here only for a scheduled
 * message the caller's side may see; any other id goes on to the routes of sent messages,
 * mounted after this area (which answer 404 for an id they do not know either).
 */
const router: AreaRouter = new Router();
router.use(authenticated);

/** The conversation's scheduled messages of the caller's side, soonest first. */
router.get("/api/clients/:id/scheduled", async (ctx) => {
  const actor = currentUser(ctx);
  const client = await authorizedClient(ctx.services, actor, "readMessages", ctx.params.id);
  const rows = await listScheduledMessages(ctx.services.db, client.id, actor.role);
  ctx.body = rows.map(presentScheduledMessage);
});

/** {content?, sendAt?}: its author changes the text, the time, or both. */
router.patch(FALLS_THROUGH, "/api/messages/:id", async (ctx, next) => {
  const actor = currentUser(ctx);
  const subject = await findVisibleScheduled(ctx.services, actor, ctx.params.id);
  if (!subject) return next();
  scheduledMessagesPolicy.authorize(actor, "change", subject);
  const input = parseOrThrow(updateScheduledMessageInput, ctx.request.body ?? {});
  ctx.body = presentScheduledMessage(await updateScheduledMessage(ctx.services, subject, input));
});

/** Cancels it (anyone of its side); it is never sent. */
router.delete(FALLS_THROUGH, "/api/messages/:id", async (ctx, next) => {
  const actor = currentUser(ctx);
  const subject = await findVisibleScheduled(ctx.services, actor, ctx.params.id);
  if (!subject) return next();
  scheduledMessagesPolicy.authorize(actor, "cancel", subject);
  await cancelScheduledMessage(ctx.services, subject);
  ctx.body = { success: true, message: readable(ctx, msg("Scheduled message cancelled")) };
});

/**
 * Send now: its author sends it at once, as the job would at its time. 201 with the message as
 * POST /api/clients/{id}/messages answers it; 404 once it was sent or cancelled.
 */
router.post("/api/messages/:id/send-now", async (ctx) => {
  const actor = currentUser(ctx);
  const subject = await findVisibleScheduled(ctx.services, actor, ctx.params.id);
  if (!subject) throw notFound("Message not found");
  scheduledMessagesPolicy.authorize(actor, "change", subject);
  const outcome = await sendScheduledMessage(ctx.services, subject.scheduled.id);
  if (outcome.kind !== "sent") throw notFound("Message not found");
  ctx.status = 201;
  ctx.body = presentSentMessage(outcome.message, outcome.author, outcome.client);
});

export default router;
