import type { AnnotationPayload } from "../../shared/schemas/annotations";
import type { AnnotationThread } from "../queries/list-annotations";

const iso = (at: Date | string) => new Date(at).toISOString();

/** A review mark with its thread (issue 27), as both sides of the conversation read it. */
export function presentAnnotation({
  annotation,
  version,
  replies,
}: AnnotationThread): AnnotationPayload {
  return {
    id: annotation.id,
    messageId: annotation.messageId,
    version,
    page: annotation.page,
    x: annotation.x,
    y: annotation.y,
    width: annotation.width,
    height: annotation.height,
    comment: annotation.comment,
    author: { id: annotation.authorId, name: annotation.authorName, side: annotation.authorSide },
    replies: replies.map((reply) => ({
      id: reply.id,
      content: reply.content,
      author: { id: reply.authorId, name: reply.authorName, side: reply.authorSide },
      createdAt: iso(reply.createdAt),
    })),
    resolved: annotation.resolvedAt !== null,
    resolvedAt: annotation.resolvedAt === null ? null : iso(annotation.resolvedAt),
    resolvedByName: annotation.resolvedAt === null ? null : annotation.resolvedByName,
    visibility: annotation.visibility,
    carriedFromId: annotation.carriedFromId,
    createdAt: iso(annotation.createdAt),
  };
}
