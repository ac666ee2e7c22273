import type { Knex } from "knex";
import type { Visibility } from "../../shared/schemas/message-payload";
import { Annotation, AnnotationReply } from "../models";

/** A mark with its thread and the names of the people in it, as the presenter wants it. */
export interface AnnotationThread {
  annotation: Annotation;
  /** The mark's file version's number. */
  version: number;
  replies: AnnotationReply[];
}

/**
 * The marks on file version `messageId` that the reader's side may see (a client never
 * receives a staff-only mark), oldest first, each with its replies oldest first. Names are the
 * people's current ones; the one written with the mark once they are gone.
 */
export async function listAnnotations(
  db: Knex,
  messageId: string,
  visibilities: readonly Visibility[],
  only?: string,
): Promise<AnnotationThread[]> {
  const annotations = await Annotation.query(db)
    .alias("n")
    .select(
      "n.*",
      "m.versionNumber as version",
      db.raw("coalesce(a.full_name, n.author_name) as author_name"),
      db.raw("coalesce(r.full_name, n.resolved_by_name) as resolved_by_name"),
    )
    .join("messages as m", "m.id", "n.messageId")
    .leftJoin("users as a", "a.id", "n.authorId")
    .leftJoin("users as r", "r.id", "n.resolvedBy")
    .where("n.messageId", messageId)
    .whereIn("n.visibility", [...visibilities])
    .modify((query) => {
      if (only) query.where("n.id", only);
    })
    .orderBy([
      { column: "n.createdAt", order: "asc" },
      { column: "n.id", order: "asc" },
    ]);
  if (annotations.length === 0) return [];
  const replies = await AnnotationReply.query(db)
    .alias("p")
    .select("p.*", db.raw("coalesce(u.full_name, p.author_name) as author_name"))
    .leftJoin("users as u", "u.id", "p.authorId")
    .whereIn(
      "p.annotationId",
      annotations.map((annotation) => annotation.id),
    )
    .orderBy([
      { column: "p.createdAt", order: "asc" },
      { column: "p.id", order: "asc" },
    ]);
  const byMark = new Map<string, AnnotationReply[]>();
  for (const reply of replies) {
    const thread = byMark.get(reply.annotationId) ?? [];
    thread.push(reply);
    byMark.set(reply.annotationId, thread);
  }
  return annotations.map((annotation) => ({
    annotation,
    version: (annotation as Annotation & { version: number }).version,
    replies: byMark.get(annotation.id) ?? [],
  }));
}
