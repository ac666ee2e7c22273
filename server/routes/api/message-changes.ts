import { Router } from "@koa/router";
import { editMessageInput } from "../../../shared/schemas/message-changes";
import { deleteMessage, editMessage } from "../../commands/change-message";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { visibilitiesFor } from "../../policies/conversation-sides";
import { authorizedMessageChange, type MessageChange } from "../../policies/message-changes";
import { presentMessage } from "../../presenters/message";
import { presentMessageEdits } from "../../presenters/message-edits";
import { loadMessage, loadMessageView } from "../../queries/load-conversation";
import { loadPreviousTexts } from "../../queries/message-edits";
import type { User } from "../../models";
import { type AreaRouter, type RouteContext, withInput } from "../area-router";

/**
 * Editing and deleting one's own message (issue 28, point 3). Mounted after the other routes
 * of /api/messages/:id: a router before it may answer these paths for its own messages.
 */
const router: AreaRouter = new Router();

/** The message as the actor sees it now (deleted: the placeholder's fields). */
async function presentChanged(ctx: RouteContext, actor: User, { client, message }: MessageChange) {
  const visible = visibilitiesFor(actor.role);
  const row = await loadMessage(ctx.services.db, client.id, message.id, visible);
  ctx.body = presentMessage(row, await loadMessageView(ctx.services.db, actor, client));
}

/**
 * PATCH /api/messages/:id {content}: its author replaces the text (a file's caption) within 15
 * minutes of sending. 200 with the message; 400 blank, or a file without text; 403 someone
 * else's; 404 outside the actor's conversations; 409 too late, or deleted.
 */
router.patch(
  "/api/messages/:id",
  authenticated,
  withInput(editMessageInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const now = ctx.services.clock.now();
    const subject = await authorizedMessageChange(ctx.services, actor, "edit", ctx.params.id, now);
    await editMessage(ctx.services, actor, subject, input.content);
    await presentChanged(ctx, actor, subject);
  }),
);

/**
 * DELETE /api/messages/:id: its author deletes it within 15 minutes of sending; a file only
 * while nobody has decided on it. 200 with the message as it now shows ("deleted"); 403
 * someone else's; 404 outside the actor's conversations; 409 too late, decided, or deleted.
 */
router.delete("/api/messages/:id", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  const now = ctx.services.clock.now();
  const subject = await authorizedMessageChange(ctx.services, actor, "delete", ctx.params.id, now);
  await deleteMessage(ctx.services, subject);
  await presentChanged(ctx, actor, subject);
});

/** GET /api/messages/:id/edits: the previous texts, to the workspace's staff only (else 404). */
router.get("/api/messages/:id/edits", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  const now = ctx.services.clock.now();
  const { message } = await authorizedMessageChange(
    ctx.services,
    actor,
    "readEdits",
    ctx.params.id,
    now,
  );
  ctx.body = presentMessageEdits(await loadPreviousTexts(ctx.services.db, message.id));
});

export default router;
