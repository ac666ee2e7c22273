import { Router } from "@koa/router";
import {
  createSavedReplyInput,
  fillSavedReplyInput,
  updateSavedReplyInput,
} from "../../../shared/schemas/saved-replies";
import { createSavedReply } from "../../commands/create-saved-reply";
import { deleteSavedReply } from "../../commands/delete-saved-reply";
import { updateSavedReply } from "../../commands/update-saved-reply";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import type { User } from "../../models";
import { findClient } from "../../policies/clients";
import { savedRepliesPolicy } from "../../policies/saved-replies";
import { presentSavedReply } from "../../presenters/saved-reply";
import { fillSavedReply } from "../../queries/fill-saved-reply";
import {
  findSavedReply,
  type ListedSavedReply,
  listSavedReplies,
} from "../../queries/saved-replies";
import { notFound } from "../../errors";
import { isUuid } from "../../validate";
import { type AreaRouter, withInput } from "../area-router";

/** A workspace's saved replies (issue 28): its staff only. */
const router: AreaRouter = new Router({ prefix: "/api/saved-replies" });
router.use(authenticated);

const present = (actor: User, reply: ListedSavedReply) =>
  presentSavedReply(reply, savedRepliesPolicy.can(actor, "change", reply));

router.get("/", async (ctx) => {
  const actor = currentUser(ctx);
  savedRepliesPolicy.authorize(actor, "use");
  const replies = await listSavedReplies(ctx.services.db, actor.workspaceId!);
  ctx.body = replies.map((reply) => present(actor, reply));
});

router.post(
  "/",
  withInput(createSavedReplyInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    ctx.status = 201;
    ctx.body = present(actor, await createSavedReply(ctx.services, actor, input));
  }),
);

router.patch(
  "/:id",
  withInput(updateSavedReplyInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const reply = await updateSavedReply(ctx.services, actor, ctx.params.id ?? "", input);
    ctx.body = present(actor, reply);
  }),
);

router.delete("/:id", async (ctx) => {
  await deleteSavedReply(ctx.services, currentUser(ctx), ctx.params.id ?? "");
  ctx.status = 204;
});

/** The text filled in for a conversation the actor has (any other client: 404). */
router.post(
  "/:id/fill",
  withInput(fillSavedReplyInput, async (ctx, { clientId }) => {
    const actor = currentUser(ctx);
    savedRepliesPolicy.authorize(actor, "use");
    const id = ctx.params.id ?? "";
    const { db, config } = ctx.services;
    const reply = isUuid(id) ? await findSavedReply(db, actor.workspaceId!, id) : undefined;
    if (!reply) throw notFound("Saved reply not found");
    const client = await findClient(ctx.services, clientId);
    savedRepliesPolicy.authorize(actor, "fillFor", client);
    ctx.body = { content: await fillSavedReply(db, config.appUrl, reply.text, client!, actor) };
  }),
);

export default router;
