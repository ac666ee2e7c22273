import type { Language } from "../../shared/i18n/languages";
import type { Knex } from "knex";
import type { Role } from "../../shared/schemas/user";
import type { Pojo } from "objection";
import { BaseModel } from "./BaseModel";
import { User } from "./User";

/** How a conversation stands for one side (the viewer). */
export interface ConversationStats {
  /** Messages from the other side after the viewer's side's read mark (its furthest reader). */
  unreadCount: number;
  /** The last message came from the other side. */
  awaitingReply: boolean;
  lastMessageAt: Date | null;
  /** The owner's files that require feedback and wait for the client's decision. */
  pendingApprovals: number;
}

export const NO_STATS: ConversationStats = {
  unreadCount: 0,
  awaitingReply: false,
  lastMessageAt: null,
  pendingApprovals: 0,
};

/** SQL that holds for a live client (issue 28), `alias` naming the clients row. */
export const liveClientSql = (alias: string) => `${alias}.deleted_at is null`;

interface StatsColumns {
  lastMessageAt: Date | null;
  lastSenderRole: Role | null;
  unreadCount: number | null;
  pendingApprovals: number | null;
}

export class Client extends BaseModel {
  static override tableName = "clients";

  id!: string;
  ownerId!: string;
  userId!: string | null;
  name!: string;
  email!: string;
  inviteTokenHash!: string | null;
  /** The live token, encrypted (see auth/invite-tokens.ts), so the owner can copy the link again. */
  inviteTokenEncrypted!: string | null;
  inviteIssuedAt!: Date | null;
  joinedAt!: Date | null;
  emailNotificationDelay!: number;
  createdAt!: Date;
  updatedAt!: Date;
  /**
   * Set when the client was deleted while its workspace keeps deleted clients (issue 28): it is
   * gone for everyone until restored or purged. Live clients have null (`Client.live`).
   */
  deletedAt!: Date | null;
  /** Issue 29: the language of this client's invites and portal until a contact picks one. */
  language!: Language | null;
  deletedBy!: string | null;
  /**
   * Read with the row, not columns (client_assignees, issue 26): the staff assigned to it and
   * its lead. Absent where a query did not read them.
   */
  assigneeIds?: string[];
  leadUserId?: string | null;

  owner?: User;

  static override relationMappings = () => ({
    owner: {
      relation: BaseModel.BelongsToOneRelation,
      modelClass: User,
      join: { from: "clients.ownerId", to: "users.id" },
    },
  });

  override $beforeUpdate() {
    this.updatedAt = new Date();
  }

  override $formatDatabaseJson(json: Pojo): Pojo {
    const {
      assigneeIds: _assignees,
      leadUserId: _lead,
      ...columns
    } = super.$formatDatabaseJson(json);
    return columns;
  }

  /**
   * The clients that exist for everyone (issue 28): not deleted and waiting for a restore or
   * the purge. Every read of clients starts here; SQL written by hand uses `liveClientSql`.
   */
  static live(db: Knex) {
    return Client.query(db).whereNull("clients.deletedAt");
  }

  /** Whether client `id` is there (not deleted, not waiting for the purge). */
  static async isLive(db: Knex, id: string): Promise<boolean> {
    return (await Client.live(db).select("id").findById(id)) !== undefined;
  }

  /** The clients a workspace has, as its plan counts them (deleted ones do not count). */
  static countOfOwner(db: Knex, ownerId: string): Promise<number> {
    return Client.live(db).where("ownerId", ownerId).resultSize();
  }

  /** The conversation a client user belongs to (null for owners and a deleted client's). */
  static async idOfUser(db: Knex, user: User): Promise<string | null> {
    if (user.role !== "client" || !user.clientId) return null;
    const client = await Client.live(db).select("id").findById(user.clientId);
    return client?.id ?? null;
  }

  /**
   * Clients with their stats for a viewer role, in one query: the last message and the unread
   * count come from lateral subqueries on the (client_id, seq) index, so the cost does not
   * grow with the length of the conversations. Newest activity first. Internal notes (issue 26)
   * count for neither side: not as unread or awaiting a reply for the client, nor as an answer
   * or as activity for the staff. Nor do deleted messages (issue 28).
   */
  static async withStats(
    db: Knex,
    viewerRole: Role,
    where: { ownerId: string; assigneeId?: string } | { clientId: string },
  ): Promise<{ client: Client; stats: ConversationStats }[]> {
    const query = db("clients as c")
      .select(
        "c.*",
        db.raw(
          `array(select a.user_id from client_assignees a where a.client_id = c.id
             order by a.assigned_at, a.user_id) as "assigneeIds"`,
        ),
        db.raw(
          `(select a.user_id from client_assignees a where a.client_id = c.id and a.is_lead)
             as "leadUserId"`,
        ),
        "last.createdAt as lastMessageAt",
        "last.senderRole as lastSenderRole",
        "unread.count as unreadCount",
        "pending.count as pendingApprovals",
      )
      // The side's read mark is its furthest reader's (NotificationState.readStateOf).
      .joinRaw(
        "left join lateral (select max(s.last_read_seq) as last_read_seq from notification_states s where s.client_id = c.id and s.recipient_role = ?) as ns on true",
        [viewerRole],
      )
      .joinRaw(
        "left join lateral (select m.created_at, m.sender_role from messages m where m.client_id = c.id and m.visibility = 'client' and m.deleted_at is null order by m.seq desc limit 1) as last on true",
      )
      .joinRaw(
        "left join lateral (select count(*)::int as count from messages m where m.client_id = c.id and m.seq > coalesce(ns.last_read_seq, 0) and m.sender_role <> ? and m.visibility = 'client' and m.deleted_at is null) as unread on true",
        [viewerRole],
      )
      .joinRaw(
        "left join lateral (select count(*)::int as count from messages m where m.client_id = c.id and m.feedback_status = 'pending' and m.sender_role = 'owner') as pending on true",
      )
      .whereNull("c.deletedAt")
      .orderByRaw("coalesce(last.created_at, c.created_at) desc, c.id");
    if ("ownerId" in where) {
      query.where("c.ownerId", where.ownerId);
      if (where.assigneeId)
        query.whereExists(
          db("client_assignees as a")
            .whereRaw("a.client_id = c.id")
            .where("a.userId", where.assigneeId),
        );
    } else query.where("c.id", where.clientId);
    const rows: (Record<string, unknown> & StatsColumns)[] = await query;
    return rows.map(
      ({ lastMessageAt, lastSenderRole, unreadCount, pendingApprovals, ...columns }) => ({
        client: Client.fromJson(columns, { skipValidation: true }),
        stats: {
          unreadCount: unreadCount ?? 0,
          awaitingReply: lastSenderRole !== null && lastSenderRole !== viewerRole,
          lastMessageAt,
          pendingApprovals: pendingApprovals ?? 0,
        },
      }),
    );
  }
}
