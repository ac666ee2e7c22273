import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import { Annotation, type User } from "../models";

/**
 * A new version carries the previous version's open marks over (issue 27, "check these"):
 * each becomes a mark of the new version at the same place, with the same comment and author,
 * naming the one it came from. The earlier marks stay as they were, with their threads.
 * Runs in the new version's transaction; answers how many were carried.
 */
export async function carryOpenMarks(
  trx: Knex.Transaction,
  fromMessageId: string,
  toMessageId: string,
  now: Date,
): Promise<number> {
  const open = await Annotation.query(trx)
    .where({ messageId: fromMessageId })
    .whereNull("resolvedAt")
    .orderBy([{ column: "createdAt" }, { column: "id" }]);
  if (open.length === 0) return 0;
  // One millisecond apart, so the new version lists them in their old order.
  await Annotation.query(trx).insert(
    open.map((mark, index) => ({
      id: randomUUID(),
      clientId: mark.clientId,
      messageId: toMessageId,
      page: mark.page,
      x: mark.x,
      y: mark.y,
      width: mark.width,
      height: mark.height,
      comment: mark.comment,
      authorId: mark.authorId,
      authorName: mark.authorName,
      authorSide: mark.authorSide,
      visibility: mark.visibility,
      carriedFromId: mark.id,
      createdAt: new Date(now.getTime() + index),
    })),
  );
  return open.length;
}

/**
 * Approving a version resolves its open marks (issue 27: resolving them is part of approving),
 * by the approver. Staff-only marks are the team's own and stay as they are. Answers how many.
 */
export async function resolveMarksOnApproval(
  trx: Knex.Transaction,
  messageId: string,
  approver: User,
  now: Date,
): Promise<number> {
  return Annotation.query(trx)
    .where({ messageId, visibility: "client" })
    .whereNull("resolvedAt")
    .patch({ resolvedAt: now, resolvedBy: approver.id, resolvedByName: approver.fullName });
}
