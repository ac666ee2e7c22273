import { msg } from "../../../shared/i18n/msg";
import { readable } from "../../i18n/readable";
import { Router } from "@koa/router";
import type { ExportQueuedResponse } from "../../../shared/schemas/exports";
import { formatFileSize } from "../../../shared/files";
import {
  type ExportScope,
  exportSubject,
  planExport,
  streamExport,
} from "../../commands/build-export";
import { EXPORT_LINK_HOURS, queueMailedExport } from "../../commands/mailed-exports";
import { gone, notFound } from "../../errors";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import { exportFileName } from "../../presenters/export-names";
import { findExportByToken } from "../../queries/export-link";
import type { AreaRouter, RouteContext } from "../area-router";

const router: AreaRouter = new Router();

/**
 * The ZIP of `scope` for the signed-in caller, streamed while it is built (see
 * commands/build-export.ts); 202 when its files add up to more than EXPORT_INLINE_MAX_BYTES,
 * and the data-exports job mails a link instead.
 */
async function answerExport(ctx: RouteContext, scope: ExportScope) {
  const actor = currentUser(ctx);
  const { services } = ctx;
  const subject = await exportSubject(services, actor, scope);
  const plan = await planExport(services, actor, subject.clients, scope.kind === "workspace");
  const fileName = exportFileName(subject.name, services.clock.now());
  // HEAD says what GET would answer, without queueing or building anything.
  const head = ctx.method === "HEAD";
  if (plan.totalBytes > services.config.exportInlineMaxBytes) {
    if (!head) await queueMailedExport(services, actor, subject, fileName);
    ctx.status = 202;
    ctx.body = {
      message: readable(
        ctx,
        msg(
          "This export holds {{size}} of files, so we'll build it in the background and email you a link to download it (valid for {{hours}} hours).",
        ),
        { size: formatFileSize(plan.totalBytes), hours: EXPORT_LINK_HOURS },
      ),
    } satisfies ExportQueuedResponse;
    return;
  }
  sendZip(ctx, fileName);
  if (!head) ctx.body = streamExport(services, plan);
}

/** The headers of a ZIP download; `fileName` is ASCII (exportFileName). */
function sendZip(ctx: RouteContext, fileName: string, length?: number) {
  ctx.compress = false; // stored files are mostly compressed already; the text is deflated
  ctx.status = 200;
  ctx.set("Content-Type", "application/zip");
  ctx.set("Content-Disposition", `attachment; filename="${fileName}"`);
  ctx.set("X-Content-Type-Options", "nosniff");
  ctx.set("Cache-Control", "private, no-store");
  if (length !== undefined) ctx.length = length;
}

/** GET /api/clients/{id}/export: a conversation, for its staff (internal notes marked). */
router.get("/api/clients/:id/export", authenticated, (ctx) =>
  answerExport(ctx, { kind: "conversation", clientId: ctx.params.id }),
);

/** GET /api/export: the whole workspace, a folder per client, for its owner and admins. */
router.get("/api/export", authenticated, (ctx) => answerExport(ctx, { kind: "workspace" }));

/** GET /api/portal/export: a client contact's own conversation, without internal notes. */
router.get("/api/portal/export", authenticated, (ctx) => answerExport(ctx, { kind: "own" }));

/**
 * GET /api/exports/{token}: a mailed export's ZIP, to whoever has the link, for 24 hours;
 * 410 once they are over, 404 for a token that never was.
 */
router.get("/api/exports/:token", async (ctx) => {
  const { services } = ctx;
  const row = await findExportByToken(services.db, ctx.params.token ?? "");
  if (!row) throw notFound("This download link is not valid. Start a new export in ClientDesk.");
  const expired =
    row.status !== "ready" ||
    !row.storedName ||
    !row.expiresAt ||
    new Date(row.expiresAt) <= services.clock.now();
  if (expired)
    throw gone(
      "This download link has expired (links work for {{hours}} hours). Start a new export in ClientDesk.",
      { hours: EXPORT_LINK_HOURS },
    );
  const body = await services.storage.get(row.storedName!);
  sendZip(ctx, row.fileName, Number(row.sizeBytes));
  ctx.body = body;
});

export default router;
