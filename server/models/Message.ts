import type { FeedbackStatus } from "../../shared/schemas/messages";
import type { Role } from "../../shared/schemas/user";
import { BaseModel } from "./BaseModel";

export class Message extends BaseModel {
  static override tableName = "messages";

  id!: string;
  /** Insertion order (bigserial): pagination, catch-up and read state go by it. */
  seq!: number;
  clientId!: string;
  senderId!: string | null;
  senderRole!: Role;
  content!: string | null;
  fileId!: string | null;
  requiresFeedback!: boolean;
  feedbackStatus!: FeedbackStatus | null;
  feedbackComment!: string | null;
  feedbackAt!: Date | null;
  /** The client user who decided (null while pending, or once that user is gone). */
  feedbackBy!: string | null;
  /** For a later version of a file sent for approval: the thread's first message. */
  versionOf!: string | null;
  /** 1 for a first (or only) version, then 2, 3, ... within its thread. */
  versionNumber!: number;
  createdAt!: Date;

  /** Joined from files by the queries that present messages. */
  fileStoredName?: string | null;
  fileName?: string | null;
  fileSize?: number | null;
  /** No later version of this file exists (true for any message that is not a file thread). */
  isLatestVersion?: boolean;
}
