import { Router } from "@koa/router";
import { fileSha256 } from "../../commands/file-sha256";
import { contentDisposition } from "../../downloads/content-disposition";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { authorizedMessage } from "../../policies/feedback";
import { approvalRecordFileName, renderApprovalRecord } from "../../presenters/approval-record-pdf";
import { loadApprovalRecord } from "../../queries/approval-record";
import type { AreaRouter } from "../area-router";

const router: AreaRouter = new Router();

/**
 * GET /api/messages/:messageId/approval-record: the one-page PDF record of an approved version
 * (issue 27, point 6), for both sides of the conversation (whoever may read the file). 404 for
 * any other message, a version not approved included.
 */
router.get("/api/messages/:messageId/approval-record", authenticated, async (ctx) => {
  const actor = currentUser(ctx);
  const { message, client } = await authorizedMessage(
    ctx.services,
    actor,
    "readApprovalRecord",
    ctx.params.messageId,
  );
  const facts = await loadApprovalRecord(ctx.services.db, client, message.id);
  const sha256 = await fileSha256(ctx.services, facts.file);
  const pdf = await renderApprovalRecord(facts, sha256, ctx.services.clock.now());
  ctx.set("Content-Type", "application/pdf");
  ctx.set(
    "Content-Disposition",
    contentDisposition(
      "attachment",
      approvalRecordFileName(facts.file.originalName, facts.version),
    ),
  );
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Cache-Control", "private, no-store");
  ctx.body = Buffer.from(pdf);
});

export default router;
