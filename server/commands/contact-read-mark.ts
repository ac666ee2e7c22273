import type { Knex } from "knex";
import type { User } from "../models";

/**
 * A client-side person's own read mark (issue 26, contacts): moved forward to `seq`, never
 * back. The side's mark (notification_states) stays the furthest of its people's.
 */
export async function advanceContactReadMark(
  db: Knex,
  reader: User,
  clientId: string,
  seq: number,
  now: Date,
): Promise<void> {
  await db("contactReadMarks")
    .insert({ userId: reader.id, clientId, lastReadSeq: seq, readAt: now })
    .onConflict("userId")
    .merge({ lastReadSeq: seq, readAt: now })
    .where("contactReadMarks.lastReadSeq", "<", seq);
}
