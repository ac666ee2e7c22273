import { Router } from "@koa/router";
import type { Next } from "koa";
import type { ApprovalRule } from "../../../shared/schemas/messages";
import {
  approvalRuleField,
  feedbackInput,
  requiresFeedbackField,
} from "../../../shared/schemas/files";
import { decideFeedback } from "../../commands/decide-feedback";
import { dueDateOfUpload } from "../../commands/due-dates";
import {
  loadAttachments,
  loadMessage,
  loadMessageView,
  loadVersions,
} from "../../queries/load-conversation";
import { uploadConversationFile } from "../../commands/upload-conversation-file";
import { deleteStoredFiles } from "../../storage/delete-stored-files";
import { threadIdOf, uploadNewVersion, versionRefusal } from "../../commands/upload-new-version";
import type { AppContext } from "../../context";
import { idempotentMessagePost } from "./idempotent-message-post";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { authorizedClient } from "../../policies/clients";
import { visibilitiesFor } from "../../policies/conversation-sides";
import { authorizedMessage, feedbackPolicy } from "../../policies/feedback";
import { presentMessage, presentSentMessage } from "../../presenters/message";
import type { Limit } from "../../security/rate-limiter";
import { receiveConversationFile } from "../../uploads/conversation-files";
import { type AreaRouter, withInput } from "../area-router";
import { parseOrThrow } from "../../validate";

const router: AreaRouter = new Router();

/** Uploads cost disk and bandwidth: a bound per user on top of the 10MB limit. */
const FILE_UPLOADS_PER_USER: Limit = { points: 120, windowMs: 15 * 60_000 };

async function uploadLimit(ctx: AppContext, next: Next) {
  await ctx.services.rateLimiter.consume(
    `file-upload:${currentUser(ctx).id}`,
    FILE_UPLOADS_PER_USER,
  );
  return next();
}

/**
 * POST /api/clients/:id/upload (multipart: `file`, optional `requiresFeedback` "true"/"false",
 * optional `approvalRule` "any"/"everyone" for a file that requires feedback).
 * The conversation is checked before a byte of the body is read (401, 404); the file is
 * streamed to storage; then requiresFeedback=true from anyone but the owner is a 403 and the
 * bytes are removed. 201 with the new file message.
 */
router.post(
  "/api/clients/:id/upload",
  authenticated,
  idempotentMessagePost,
  uploadLimit,
  async (ctx) => {
    const actor = currentUser(ctx);
    const client = await authorizedClient(ctx.services, actor, "sendMessage", ctx.params.id);
    const { file, fields } = await receiveConversationFile(ctx, ctx.services.storage, [
      "requiresFeedback",
      "dueDate",
      "approvalRule",
    ]);
    let requiresFeedback: boolean;
    let dueDate: string | undefined;
    let approvalRule: ApprovalRule | undefined;
    try {
      requiresFeedback = parseOrThrow(requiresFeedbackField, fields.requiresFeedback);
      approvalRule = parseOrThrow(approvalRuleField, fields.approvalRule);
      if (requiresFeedback) feedbackPolicy.authorize(actor, "requestFeedback", client);
      dueDate = dueDateOfUpload(fields.dueDate, requiresFeedback, actor, ctx.services.clock.now());
    } catch (error) {
      await deleteStoredFiles(ctx.services, [file.storedName]);
      throw error;
    }
    const message = await uploadConversationFile(ctx.services, actor, client, file, {
      requiresFeedback,
      dueDate,
      approvalRule,
    });
    ctx.status = 201;
    ctx.body = presentSentMessage(message, actor, client);
  },
);

/** GET /api/clients/:id/attachments: the conversation's file messages, newest first. */
router.get("/api/clients/:id/attachments", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  const client = await authorizedClient(ctx.services, actor, "readMessages", ctx.params.id);
  const rows = await loadAttachments(ctx.services.db, client.id, visibilitiesFor(actor.role));
  const view = await loadMessageView(ctx.services.db, actor, client);
  ctx.body = rows.map((row) => presentMessage(row, view));
});

/**
 * PATCH /api/messages/:messageId/feedback {feedbackStatus, feedbackComment?}: the client's
 * decision on a pending file of the owner's. 200 with the message; 409 once decided.
 */
router.patch(
  "/api/messages/:messageId/feedback",
  authenticated,
  withInput(feedbackInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const { client, message: target } = await authorizedMessage(
      ctx.services,
      actor,
      "decide",
      ctx.params.messageId,
    );
    const message = await decideFeedback(ctx.services, actor, client, target.id, input);
    const view = await loadMessageView(ctx.services.db, actor, client);
    const row = await loadMessage(
      ctx.services.db,
      client.id,
      message.id,
      visibilitiesFor(actor.role),
    );
    ctx.body = presentMessage(row, view);
  }),
);

/**
 * POST /api/messages/:messageId/versions (multipart `file`, optional `approvalRule`): the
 * owner's new version of a file
 * of that thread whose latest version is needs_work. 201 with the new file message.
 */
router.post(
  "/api/messages/:messageId/versions",
  authenticated,
  idempotentMessagePost,
  uploadLimit,
  async (ctx) => {
    const actor = currentUser(ctx);
    const { message: target, client } = await authorizedMessage(
      ctx.services,
      actor,
      "uploadVersion",
      ctx.params.messageId,
    );
    // Refused before a byte of the body is read; checked again under the lock.
    const early = await versionRefusal(ctx.services.db, target);
    if ("error" in early) throw early.error;
    const { file, fields } = await receiveConversationFile(ctx, ctx.services.storage, [
      "dueDate",
      "approvalRule",
    ]);
    let dueDate: string | undefined;
    let approvalRule: ApprovalRule | undefined;
    try {
      dueDate = dueDateOfUpload(fields.dueDate, true, actor, ctx.services.clock.now());
      approvalRule = parseOrThrow(approvalRuleField, fields.approvalRule);
    } catch (error) {
      await deleteStoredFiles(ctx.services, [file.storedName]);
      throw error;
    }
    const message = await uploadNewVersion(ctx.services, actor, client, target, file, {
      dueDate,
      approvalRule,
    });
    ctx.status = 201;
    ctx.body = presentSentMessage(message, actor, client);
  },
);

/** GET /api/messages/:messageId/versions: every version of that file's thread, oldest first. */
router.get("/api/messages/:messageId/versions", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  const { message, client } = await authorizedMessage(
    ctx.services,
    actor,
    "readVersions",
    ctx.params.messageId,
  );
  const rows = await loadVersions(
    ctx.services.db,
    client.id,
    threadIdOf(message),
    visibilitiesFor(actor.role),
  );
  const view = await loadMessageView(ctx.services.db, actor, client);
  ctx.body = rows.map((row) => presentMessage(row, view));
});

export default router;
