import type { Knex } from "knex";
import type { ModelObject } from "objection";
import type { ClientPayload } from "../../shared/schemas/clients";
import type { Role } from "../../shared/schemas/user";
import { InviteTokens } from "../auth/invite-tokens";
import { withFeatures } from "../billing/feature-tier";
import type { Services } from "../context";
import { Client, User } from "../models";
import { fileUrl } from "./user";

/** How a conversation stands for one side (the viewer). */
export interface ConversationStats {
  /** Messages from the other side after the viewer's last_read_seq. */
  unreadCount: number;
  /** The last message came from the other side. */
  awaitingReply: boolean;
  lastMessageAt: Date | null;
  /** The owner's files that require feedback and wait for the client's decision. */
  pendingApprovals: number;
}

type ClientWithStats = ModelObject<Client> & {
  lastMessageAt: Date | null;
  lastSenderRole: Role | null;
  unreadCount: number;
  pendingApprovals: number;
};

/**
 * Clients with their stats for a viewer role, in one query: the last message and the unread
 * count come from lateral subqueries on the (client_id, seq) index, so the cost does not grow
 * with the length of the conversations. Newest activity first.
 */
export async function clientsWithStats(
  db: Knex,
  viewerRole: Role,
  where: { ownerId: string } | { clientId: string },
): Promise<{ client: Client; stats: ConversationStats }[]> {
  const query = db("clients as c")
    .select(
      "c.*",
      "last.createdAt as lastMessageAt",
      "last.senderRole as lastSenderRole",
      "unread.count as unreadCount",
      "pending.count as pendingApprovals",
    )
    .leftJoin("notificationStates as ns", (join) =>
      join.on("ns.clientId", "c.id").andOnVal("ns.recipientRole", viewerRole),
    )
    .joinRaw(
      "left join lateral (select m.created_at, m.sender_role from messages m where m.client_id = c.id order by m.seq desc limit 1) as last on true",
    )
    .joinRaw(
      "left join lateral (select count(*)::int as count from messages m where m.client_id = c.id and m.seq > coalesce(ns.last_read_seq, 0) and m.sender_role <> ?) as unread on true",
      [viewerRole],
    )
    .joinRaw(
      "left join lateral (select count(*)::int as count from messages m where m.client_id = c.id and m.feedback_status = 'pending' and m.sender_role = 'owner') as pending on true",
    )
    .orderByRaw("coalesce(last.created_at, c.created_at) desc, c.id");
  if ("ownerId" in where) query.where("c.ownerId", where.ownerId);
  else query.where("c.id", where.clientId);
  const rows: ClientWithStats[] = await query;
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

export function presentClientOwner(owner: User): ClientPayload["owner"] {
  return {
    fullName: owner.fullName,
    companyName: owner.companyName,
    accountTier: owner.accountTier,
    companyLogo: fileUrl(owner.companyLogo),
    profilePicture: fileUrl(owner.profilePicture),
    primaryColor: owner.primaryColor,
    backgroundColor: owner.backgroundColor,
    textColor: owner.textColor,
  };
}

/** Every field of a client that leaves the server, listed. */
export function presentClient(
  client: Client,
  owner: User,
  stats: ConversationStats,
  inviteToken: string | null,
): ClientPayload {
  return {
    id: client.id,
    name: client.name,
    email: client.email,
    inviteToken,
    joinedAt: client.joinedAt ? new Date(client.joinedAt).toISOString() : null,
    emailNotificationDelay: client.emailNotificationDelay,
    createdAt: new Date(client.createdAt).toISOString(),
    unreadCount: stats.unreadCount,
    awaitingReply: stats.awaitingReply,
    lastMessageAt: stats.lastMessageAt ? new Date(stats.lastMessageAt).toISOString() : null,
    pendingApprovals: stats.pendingApprovals,
    owner: presentClientOwner(owner),
  };
}

/** The live invite token, for the owner of a client that has not joined; null otherwise. */
function visibleInviteToken(tokens: InviteTokens, viewer: User, client: Client): string | null {
  if (viewer.id !== client.ownerId || client.joinedAt) return null;
  return tokens.reveal(client.id, client.inviteTokenEncrypted);
}

/** The owner's client list. */
export async function presentClientList(services: Services, owner: User): Promise<ClientPayload[]> {
  const tokens = new InviteTokens(services.config.sessionSecret);
  const rows = await clientsWithStats(services.db, "owner", { ownerId: owner.id });
  const shownOwner = withFeatures(services.config, owner);
  return rows.map(({ client, stats }) =>
    presentClient(client, shownOwner, stats, visibleInviteToken(tokens, owner, client)),
  );
}

/** One client as its owner or its client user sees it (stats from the viewer's side). */
export async function presentClientFor(
  services: Services,
  viewer: User,
  client: Client,
): Promise<ClientPayload> {
  const tokens = new InviteTokens(services.config.sessionSecret);
  const [row] = await clientsWithStats(services.db, viewer.role, { clientId: client.id });
  const owner =
    viewer.id === client.ownerId
      ? viewer
      : await User.query().findById(client.ownerId).throwIfNotFound();
  const current = row?.client ?? client;
  const stats = row?.stats ?? {
    unreadCount: 0,
    awaitingReply: false,
    lastMessageAt: null,
    pendingApprovals: 0,
  };
  return presentClient(
    current,
    withFeatures(services.config, owner),
    stats,
    visibleInviteToken(tokens, viewer, current),
  );
}
