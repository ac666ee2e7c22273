import type { Knex } from "knex";
import type { Services } from "../context";
import type { Client, User } from "../models";
import { visibilitiesFor } from "../policies/conversation-sides";
import { seqOf } from "../queries/load-conversation";
import { rescheduleAfterRead } from "./notification-schedule";

/**
 * Moves a person's read mark forward to `seq` (never back), noting when (`readAt`, shown as a
 * contact's "Last read"). True when it moved: only then does the other side need to hear of it.
 */
export async function advanceReadState(
  db: Knex,
  clientId: string,
  reader: Pick<User, "id" | "role">,
  seq: number,
  readAt: Date,
): Promise<boolean> {
  const moved = await db("notificationStates")
    .insert({
      clientId,
      recipientRole: reader.role,
      recipientUserId: reader.id,
      lastReadSeq: seq,
      readAt,
    })
    .onConflict(["clientId", "recipientUserId"])
    .merge({ lastReadSeq: seq, readAt })
    .where("notificationStates.lastReadSeq", "<", seq)
    .returning("lastReadSeq");
  return moved.length > 0;
}

/**
 * Marks the conversation read up to `messageId` for the actor and, in the same transaction,
 * cancels or restarts their own pending email and records MessagesRead.
 */
export async function markRead(
  services: Services,
  actor: User,
  client: Client,
  messageId: string,
): Promise<void> {
  const seq = await seqOf(services.db, client.id, messageId, visibilitiesFor(actor.role));
  const recorded = await services.db.transaction(async (trx) => {
    const now = services.clock.now();
    if (!(await advanceReadState(trx, client.id, actor, seq, now))) return null;
    await rescheduleAfterRead(trx, client.id, actor, now);
    return await services.events.record(trx, {
      type: "MessagesRead",
      clientId: client.id,
      messageId,
    });
  });
  if (recorded) services.events.dispatch(recorded);
}
