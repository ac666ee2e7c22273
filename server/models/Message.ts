import type { Knex } from "knex";
import { type QueryBuilder, raw } from "objection";
import type { FeedbackStatus, Visibility } from "../../shared/schemas/messages";
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
  /** `internal`: a note for the workspace's staff only (issue 26); else `client`. */
  visibility!: Visibility;
  createdAt!: Date;

  /** Joined from files by the `withFile` modifier (the queries that present messages). */
  fileStoredName?: string | null;
  fileName?: string | null;
  fileSize?: number | null;
  /** No later version of this file exists (true for any message that is not a file thread). */
  isLatestVersion?: boolean;
  /**
   * Joined from users by the `withAuthor` modifier: the writer's full name and profile
   * picture (stored name); null once the writer's row is gone.
   */
  authorFullName?: string | null;
  authorPicture?: string | null;
  /** Joined by `withAuthor`: the name of the person who decided on the file, if still there. */
  deciderFullName?: string | null;
  /**
   * Read by the statement that appends a message: the conversation's message just before it
   * (null for the first), which its new_message event names (server/events/realtime.ts).
   */
  previousId?: string | null;

  static override modifiers = {
    /**
     * On a query aliased `m`: the message's file name and size, and whether a later version
     * of the file exists, as the presenter wants them.
     */
    withFile(query: QueryBuilder<Message>) {
      query
        .select(
          "m.*",
          "f.storedName as fileStoredName",
          "f.originalName as fileName",
          "f.sizeBytes as fileSize",
          raw(
            "not exists (select 1 from messages v where v.version_of = coalesce(m.version_of, m.id) and v.version_number > m.version_number) as is_latest_version",
          ),
        )
        .leftJoin("files as f", "f.id", "m.fileId");
    },
    /**
     * On a query aliased `m`: who wrote the message (name and picture), and who decided on a
     * file (which of the client's contacts, issue 26), by their primary keys.
     */
    withAuthor(query: QueryBuilder<Message>) {
      query
        .select(
          "a.fullName as authorFullName",
          "a.profilePicture as authorPicture",
          "d.fullName as deciderFullName",
        )
        .leftJoin("users as a", "a.id", "m.senderId")
        .leftJoin("users as d", "d.id", "m.feedbackBy");
    },
  };

  /**
   * A conversation's messages of the visibilities `visible` (as policies/conversation-sides.ts
   * gives them for the viewer's side) with their files and writers (alias `m`), for presenting.
   */
  static ofConversation(db: Knex, clientId: string, visible: readonly Visibility[]) {
    return Message.query(db)
      .alias("m")
      .modify("withFile")
      .modify("withAuthor")
      .where("m.clientId", clientId)
      .whereIn("m.visibility", [...visible]);
  }

  /** The seq of a message of this conversation the viewer may read; undefined for any other id. */
  static async seqIn(
    db: Knex,
    clientId: string,
    messageId: string,
    visible: readonly Visibility[],
  ): Promise<number | undefined> {
    const message = await Message.query(db)
      .select("seq")
      .findOne({ id: messageId, clientId })
      .whereIn("visibility", [...visible]);
    return message?.seq;
  }
}
