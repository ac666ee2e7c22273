import type { Knex } from "knex";
import type { Role } from "../../shared/schemas/user";
import { ScheduledMessage } from "../models";

/** Scheduled messages with their author's name, as the presenter needs them. */
const withAuthor = (db: Knex) =>
  ScheduledMessage.query(db)
    .select("scheduledMessages.*", "author.fullName as authorName")
    .join("users as author", "author.id", "scheduledMessages.authorId");

/**
 * A conversation's scheduled messages written by one side (issue 28), soonest first: what
 * GET /api/clients/{id}/scheduled shows that side.
 */
export async function listScheduledMessages(
  db: Knex,
  clientId: string,
  side: Role,
): Promise<ScheduledMessage[]> {
  return await withAuthor(db)
    .where("scheduledMessages.clientId", clientId)
    .where("scheduledMessages.authorRole", side)
    .orderBy([
      { column: "scheduledMessages.sendAt", order: "asc" },
      { column: "scheduledMessages.createdAt", order: "asc" },
    ]);
}

/** One scheduled message with its author's name; undefined once sent or cancelled. */
export async function loadScheduledMessage(
  db: Knex,
  id: string,
): Promise<ScheduledMessage | undefined> {
  return withAuthor(db).findById(id);
}

/** The conversations with messages due at `now`, the longest waiting first (the job's batch). */
export async function conversationsWithDueMessages(
  db: Knex,
  now: Date,
  limit: number,
): Promise<string[]> {
  const rows: { clientId: string }[] = await ScheduledMessage.query(db)
    .select("clientId")
    .where("sendAt", "<=", now)
    .groupBy("clientId")
    .orderByRaw("min(send_at)")
    .limit(limit)
    .castTo<{ clientId: string }[]>();
  return rows.map((row) => row.clientId);
}
