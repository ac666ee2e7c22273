import type { Knex } from "knex";
import type { Role } from "../../shared/schemas/user";
import { BaseModel } from "./BaseModel";

/** How far each side of a conversation has read (messages.seq). */
export type ReadState = Record<Role, number>;

/**
 * One row per conversation and recipient role: how far that side has read (messages.seq),
 * and what the email notifier has done about the rest.
 */
export class NotificationState extends BaseModel {
  static override tableName = "notification_states";
  static override idColumn = ["clientId", "recipientRole"];

  clientId!: string;
  recipientRole!: Role;
  lastReadSeq!: number;
  lastNotifiedSeq!: number;
  dueAt!: Date | null;
  attempts!: number;
  lastError!: string | null;

  static async readStateOf(db: Knex, clientId: string): Promise<ReadState> {
    const rows = await NotificationState.query(db)
      .select("recipientRole", "lastReadSeq")
      .where("clientId", clientId);
    const state: ReadState = { owner: 0, client: 0 };
    for (const row of rows) state[row.recipientRole] = row.lastReadSeq;
    return state;
  }
}
