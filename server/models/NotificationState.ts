import type { Knex } from "knex";
import type { Role } from "../../shared/schemas/user";
import { BaseModel } from "./BaseModel";

/** How far each side of a conversation has read (messages.seq): its furthest reader. */
export type ReadState = Record<Role, number>;

/**
 * One row per conversation and person (issue 26; `recipientRole` is their side): how far they
 * have read (messages.seq), and what the email notifier has done about the rest.
 */
export class NotificationState extends BaseModel {
  static override tableName = "notification_states";
  static override idColumn = ["clientId", "recipientUserId"];

  clientId!: string;
  recipientRole!: Role;
  recipientUserId!: string;
  lastReadSeq!: number;
  lastNotifiedSeq!: number;
  dueAt!: Date | null;
  attempts!: number;
  lastError!: string | null;

  /**
   * A side has read what any of its people has: the client sees "Seen" once one of the team
   * read it, and the staff's unread counts are the team's (docs/decisions.md, "Workspaces and
   * teams").
   */
  static async readStateOf(db: Knex, clientId: string): Promise<ReadState> {
    const rows: { recipientRole: Role; lastReadSeq: number | string }[] = await db(
      "notificationStates",
    )
      .select("recipientRole")
      .max("lastReadSeq as lastReadSeq")
      .where("clientId", clientId)
      .groupBy("recipientRole");
    const state: ReadState = { owner: 0, client: 0 };
    for (const row of rows) state[row.recipientRole] = Number(row.lastReadSeq);
    return state;
  }
}
