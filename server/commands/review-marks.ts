import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import {
  type AnnotationInput,
  type AnnotationPatchInput,
  type AnnotationReplyInput,
  MAX_ANNOTATIONS_PER_VERSION,
} from "../../shared/schemas/annotations";
import type { Services } from "../context";
import { conflict, notFound } from "../errors";
import { Annotation, AnnotationReply, type Client, Message, type User } from "../models";
import { visibilitiesFor } from "../policies/conversation-sides";
import { type AnnotationThread, listAnnotations } from "../queries/list-annotations";
import { msg } from "../../shared/i18n/msg";

export const ANNOTATION_MESSAGES = {
  notLatest: msg("Marks can only be added to the latest version"),
  approved: msg("This version is approved: marks can no longer be added"),
  // MAX_ANNOTATIONS_PER_VERSION written out (server/i18n/written-out-limits.test.ts).
  tooMany: msg("A version can carry at most 1,000 marks"),
} as const;

/** The mark `id` as `actor`'s side reads it, through `db` (the change's transaction). */
async function markAsSeenBy(db: Knex, actor: User, messageId: string, id: string) {
  const [thread] = await listAnnotations(db, messageId, visibilitiesFor(actor.role), id);
  if (!thread) throw notFound("Mark not found");
  return thread;
}

/** Writes the change with its AnnotationsChanged event; the listeners run after commit. */
async function changeMarks(
  services: Services,
  actor: User,
  client: Client,
  mark: { messageId: string; id: string; visibility: Annotation["visibility"] },
  change: (trx: Knex.Transaction) => Promise<void>,
): Promise<AnnotationThread> {
  const { thread, recorded } = await services.db.transaction(async (trx) => {
    await change(trx);
    return {
      thread: await markAsSeenBy(trx, actor, mark.messageId, mark.id),
      recorded: await services.events.record(trx, {
        type: "AnnotationsChanged",
        clientId: client.id,
        messageId: mark.messageId,
        visibility: mark.visibility,
      }),
    };
  });
  services.events.dispatch(recorded);
  return thread;
}

/**
 * A new mark on file version `version` (issue 27): only on the file's latest version, and not
 * once it is approved (409); at most MAX_ANNOTATIONS_PER_VERSION. The version's row is locked,
 * so a mark and the decision or a new version are taken one after the other.
 */
export async function addAnnotation(
  services: Services,
  actor: User,
  client: Client,
  version: Message,
  input: AnnotationInput,
): Promise<AnnotationThread> {
  const mark = {
    messageId: version.id,
    id: randomUUID(),
    visibility: input.visibility ?? "client",
  };
  return changeMarks(services, actor, client, mark, async (trx) => {
    const current = await Message.query(trx).findById(version.id).forUpdate();
    if (!current) throw notFound("File version not found");
    if (current.feedbackStatus === "approved") throw conflict(ANNOTATION_MESSAGES.approved);
    const later = await Message.query(trx)
      .select("id")
      .where("versionOf", current.versionOf ?? current.id)
      .where("versionNumber", ">", current.versionNumber)
      .first();
    if (later) throw conflict(ANNOTATION_MESSAGES.notLatest);
    const count = await Annotation.query(trx).where("messageId", version.id).resultSize();
    if (count >= MAX_ANNOTATIONS_PER_VERSION) throw conflict(ANNOTATION_MESSAGES.tooMany);
    await Annotation.query(trx).insert({
      id: mark.id,
      clientId: client.id,
      messageId: version.id,
      page: input.page,
      x: input.x,
      y: input.y,
      width: input.width,
      height: input.height,
      comment: input.comment,
      authorId: actor.id,
      authorName: actor.fullName,
      authorSide: actor.role,
      visibility: mark.visibility,
      createdAt: services.clock.now(),
    });
  });
}

/** A reply in mark `annotation`'s thread, by either side. */
export async function replyToAnnotation(
  services: Services,
  actor: User,
  client: Client,
  annotation: Annotation,
  input: AnnotationReplyInput,
): Promise<AnnotationThread> {
  return changeMarks(services, actor, client, annotation, async (trx) => {
    await AnnotationReply.query(trx).insert({
      id: randomUUID(),
      annotationId: annotation.id,
      content: input.content,
      authorId: actor.id,
      authorName: actor.fullName,
      authorSide: actor.role,
      createdAt: services.clock.now(),
    });
  });
}

/** Resolves or reopens mark `annotation`: who did it and when is kept while it is resolved. */
export async function setAnnotationResolved(
  services: Services,
  actor: User,
  client: Client,
  annotation: Annotation,
  input: AnnotationPatchInput,
): Promise<AnnotationThread> {
  return changeMarks(services, actor, client, annotation, async (trx) => {
    await Annotation.query(trx)
      .findById(annotation.id)
      .patch(
        input.resolved
          ? {
              resolvedAt: services.clock.now(),
              resolvedBy: actor.id,
              resolvedByName: actor.fullName,
            }
          : { resolvedAt: null, resolvedBy: null, resolvedByName: null },
      );
  });
}
