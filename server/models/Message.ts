import type { Knex } from "knex";
import { type QueryBuilder, raw } from "objection";
import type { ApprovalRule, FeedbackStatus, Visibility } from "../../shared/schemas/messages";
import type { Role } from "../../shared/schemas/user";
import { BaseModel } from "./BaseModel";

/** One person's decision as `withApprovals` reads it (decidedAt: the database's JSON text). */
export interface ApprovalRow {
  userId: string;
  name: string;
  status: FeedbackStatus;
  comment: string | null;
  decidedAt: string | Date | null;
}

/** A file sent for approval's open marks of one visibility (0 for any other message). */
const openMarksCount = (visibility: "client" | "internal", as: string) =>
  `case when m.requires_feedback then (select count(*) from annotations n where n.message_id = m.id and n.resolved_at is null and n.visibility = '${visibility}') else 0 end as ${as}`;

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
  /** Who must approve a file sent for approval (issue 27): any one of the client's people, or all. */
  approvalRule!: ApprovalRule;
  createdAt!: Date;
  /** When its author last changed its text (issue 28); null if never. */
  editedAt!: Date | null;
  /** When its author deleted it (issue 28): its text and file are emptied then. */
  deletedAt!: Date | null;

  /** Joined from files by the `withFile` modifier (the queries that present messages). */
  fileStoredName?: string | null;
  fileName?: string | null;
  fileSize?: number | null;
  /** No later version of this file exists (true for any message that is not a file thread). */
  isLatestVersion?: boolean;
  /** Joined by `withFile`: the file thread's due date (file_due_dates), YYYY-MM-DD, or null. */
  dueDate?: string | null;
  /**
   * Joined by `withFile` for a file sent for approval: its open review marks (issue 27) that
   * both sides see, and those only the staff see.
   */
  openMarks?: number | string;
  openInternalMarks?: number | string;
  /**
   * Joined from users by the `withAuthor` modifier: the writer's full name and profile
   * picture (stored name); null once the writer's row is gone.
   */
  authorFullName?: string | null;
  authorPicture?: string | null;
  /** Joined by `withAuthor`: the name of the person who decided on the file, if still there. */
  deciderFullName?: string | null;
  /** Joined by `withApprovals`: each person's decision on a file sent for approval. */
  approvals?: ApprovalRow[] | null;
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
          raw(openMarksCount("client", "open_marks")),
          raw(openMarksCount("internal", "open_internal_marks")),
          raw(
            "(select d.due_date::text from file_due_dates d where d.thread_id = coalesce(m.version_of, m.id)) as due_date",
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
    /**
     * On a query aliased `m`: each person's decision on a file sent for approval, in the
     * client's order (issue 27). A person still asked who has left the client drops out; a
     * decision taken stays on the record.
     */
    withApprovals(query: QueryBuilder<Message>) {
      query.select(
        raw(`case when m.requires_feedback then (
          select coalesce(json_agg(json_build_object('userId', ad.user_id, 'name', u.full_name,
                   'status', ad.status, 'comment', ad.comment, 'decidedAt', ad.decided_at)
                   order by ad.position, ad.decided_at), '[]'::json)
            from approval_decisions ad join users u on u.id = ad.user_id
           where ad.message_id = m.id
             and (ad.status <> 'pending' or u.client_id is not distinct from m.client_id)
        ) end as approvals`),
      );
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
      .modify("withApprovals")
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
