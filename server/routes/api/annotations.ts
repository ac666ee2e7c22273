import { Router } from "@koa/router";
import {
  annotationInput,
  annotationPatchInput,
  annotationReplyInput,
} from "../../../shared/schemas/annotations";
import { uuidSchema } from "../../../shared/schemas/common";
import {
  addAnnotation,
  replyToAnnotation,
  setAnnotationResolved,
} from "../../commands/review-marks";
import { authenticated, currentUser } from "../../middlewares/authenticated";
import type { ClientSource } from "../../policies/clients";
import {
  annotationsPolicy,
  findFileVersion,
  type MarkInConversation,
} from "../../policies/annotations";
import { visibilitiesFor } from "../../policies/conversation-sides";
import { findMessageInConversation } from "../../policies/feedback";
import { presentAnnotation } from "../../presenters/annotation";
import { listAnnotations } from "../../queries/list-annotations";
import { Annotation } from "../../models";
import type { User } from "../../models";
import { type AreaRouter, withInput } from "../area-router";

/** Review marks on the versions of files sent for approval (issue 27). */
const router: AreaRouter = new Router();
router.use(authenticated);

const VERSION_PATH = "/api/messages/:messageId/versions/:version/annotations";

/** GET: the version's marks the reader's side may see, oldest first, with their threads. */
router.get(VERSION_PATH, async (ctx) => {
  const actor = currentUser(ctx);
  const subject = await findFileVersion(ctx.services, ctx.params.messageId, ctx.params.version);
  annotationsPolicy.authorize(actor, "read", subject);
  const marks = await listAnnotations(
    ctx.services.db,
    subject!.message.id,
    visibilitiesFor(actor.role),
  );
  ctx.body = marks.map(presentAnnotation);
});

/** POST {page, x, y, width, height, comment, visibility?}: 201 with the new mark. */
router.post(
  VERSION_PATH,
  withInput(annotationInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const subject = await findFileVersion(ctx.services, ctx.params.messageId, ctx.params.version);
    annotationsPolicy.authorize(
      actor,
      "create",
      subject && { ...subject, internal: input.visibility === "internal" },
    );
    const mark = await addAnnotation(ctx.services, actor, subject!.client, subject!.message, input);
    ctx.status = 201;
    ctx.body = presentAnnotation(mark);
  }),
);

/** The mark named in a path with its file version, checked for `action`. */
async function authorizedMark(
  source: ClientSource,
  actor: User,
  action: "reply" | "resolve",
  id: string | undefined,
): Promise<MarkInConversation> {
  const annotation =
    id && uuidSchema.safeParse(id).success
      ? await Annotation.query(source.db).findById(id)
      : undefined;
  const version = annotation && (await findMessageInConversation(source, annotation.messageId));
  const subject = annotation && version ? { ...version, annotation } : undefined;
  annotationsPolicy.authorize(actor, action, subject);
  return subject!;
}

/** POST /api/annotations/{id}/replies {content}: 201 with the mark and its thread. */
router.post(
  "/api/annotations/:id/replies",
  withInput(annotationReplyInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const { client, annotation } = await authorizedMark(
      ctx.services,
      actor,
      "reply",
      ctx.params.id,
    );
    const mark = await replyToAnnotation(ctx.services, actor, client, annotation, input);
    ctx.status = 201;
    ctx.body = presentAnnotation(mark);
  }),
);

/** PATCH /api/annotations/{id} {resolved}: 200 with the mark. */
router.patch(
  "/api/annotations/:id",
  withInput(annotationPatchInput, async (ctx, input) => {
    const actor = currentUser(ctx);
    const { client, annotation } = await authorizedMark(
      ctx.services,
      actor,
      "resolve",
      ctx.params.id,
    );
    const mark = await setAnnotationResolved(ctx.services, actor, client, annotation, input);
    ctx.body = presentAnnotation(mark);
  }),
);

export default router;
