import type { Role } from "../../shared/schemas/user";
import { BaseModel } from "./BaseModel";

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
}
