import type { Knex } from "knex";
import { uuidSchema } from "../../shared/schemas/common";
import type { Tier } from "../../shared/tiers";
import { isPglite } from "../db/connection";
import { forbidden, type HttpError, notFound } from "../errors";
import { Client, liveClientSql, type User } from "../models";
import type { ClientCache } from "../db/client-cache";
import { isClientOf, isStaffOf, seesEveryClient } from "./conversation-sides";
import { definePolicy } from "./policy";

/** Short invite links are a paid-plan feature. */
export const hasShortLinks = (tier: Tier) => tier === "pro" || tier === "agency";

type Verdict = true | HttpError;
/** The first verdict that is not true, else true: rules read as a list of conditions. */
const all = (...verdicts: (() => Verdict)[]): Verdict => {
  for (const verdict of verdicts) {
    const result = verdict();
    if (result !== true) return result;
  }
  return true;
};

const ownersOnly = (actor: User) => actor.role === "owner" || forbidden("Only owners can do that");

const managersOnly = (actor: User) =>
  all(
    () => ownersOnly(actor),
    () => seesEveryClient(actor) || forbidden("Only the workspace's owner and admins can do that"),
  );

/**
 * A conversation exists for the actor only on one of its sides (its workspace's staff who
 * have it, or its client); else 404, as another workspace's.
 */
const member = (actor: User, client: Client | undefined): client is Client =>
  client !== undefined && (isStaffOf(actor, client) || isClientOf(actor, client));

const visible = (actor: User, client: Client | undefined) =>
  member(actor, client) || notFound("Client not found");

const ownerOfIt = (actor: User, client: Client | undefined) =>
  all(
    () => visible(actor, client),
    () => isStaffOf(actor, client!) || forbidden("Only the owner of this conversation can do that"),
  );

const managerOfIt = (actor: User, client: Client | undefined) =>
  all(
    () => ownerOfIt(actor, client),
    () => managersOnly(actor),
  );

/** Clients (conversations) and what happens in them. 404 for what is not the actor's. */
export const clientsPolicy = definePolicy({
  list: (actor: User) => ownersOnly(actor),
  /** Any of the staff; a member who adds a client is its lead (commands/add-client.ts). */
  create: (actor: User) => ownersOnly(actor),
  read: (actor: User, client: Client | undefined) => visible(actor, client),
  delete: managerOfIt,
  /** Who handles the client: its staff see it (never its client); the owner and admins set it. */
  readAssignees: ownerOfIt,
  assign: managerOfIt,
  reissueInvite: ownerOfIt,
  /** Its invite language (issue 29): the staff who invite it. */
  setLanguage: ownerOfIt,
  /** The client's people (issue 26): both sides see who is in the conversation. */
  listContacts: visible,
  /** Its staff invite and remove them; the client's people do not add each other. */
  manageContacts: ownerOfIt,
  createShortLink: (actor: User, client: Client | undefined) =>
    all(
      () => ownerOfIt(actor, client),
      () =>
        hasShortLinks(actor.workspaceTier ?? actor.accountTier) ||
        forbidden("Short invite links are part of the Pro and Agency plans"),
    ),
  updateNotificationSettings: (actor: User, client: Client | undefined) =>
    all(
      () => visible(actor, client),
      () => isClientOf(actor, client!) || forbidden("Only the client can change this setting"),
    ),
  /** The client portal's first data (GET /api/portal/{id}): the conversation's client only. */
  openPortal: (actor: User, client: Client | undefined) =>
    all(
      () => visible(actor, client),
      () => isClientOf(actor, client!) || forbidden("The client portal is for the client"),
    ),
  /** The dashboard's first data (GET /api/dashboard): owners only. */
  openDashboard: (actor: User) => ownersOnly(actor),
  /** A conversation the dashboard's first data carries: one of the owner's own. */
  openInDashboard: ownerOfIt,
  readMessages: visible,
  sendMessage: visible,
  /** An internal note (issue 26): the workspace's staff who have the client, never its client. */
  writeInternalNote: (actor: User, client: Client | undefined) =>
    all(
      () => visible(actor, client),
      () => isStaffOf(actor, client!) || forbidden("Only the team can write internal notes"),
    ),
  markRead: visible,
  /**
   * Export (issue 28): a conversation's ZIP for the staff who have it (owner, admins, the
   * members assigned to it), internal notes included; its contacts use exportOwnData.
   */
  exportConversation: ownerOfIt,
  /** A contact's own data (GET /api/portal/export): their client's conversation, no notes. */
  exportOwnData: (actor: User, client: Client | undefined) =>
    all(
      () => actor.role === "client" || forbidden("This export is for the client's people"),
      () => visible(actor, client),
      () => isClientOf(actor, client!) || forbidden("Only the client's people can do that"),
    ),
  /** The whole workspace (GET /api/export): its owner and admins. */
  exportWorkspace: (actor: User) => managersOnly(actor),
  /**
   * Deleted clients (issue 28): the workspace's owner and admins, who delete clients, list and
   * restore them and set how long they are kept.
   */
  manageDeleted: (actor: User) => managersOnly(actor),
  /** How long deleted clients are kept: any of the staff (the delete dialog says it). */
  readRetention: (actor: User) => ownersOnly(actor),
});

export type ClientAction = Parameters<typeof clientsPolicy.authorize>[1];

/** Every column of clients, named as the model has them. */
const CLIENT_COLUMNS = `id, owner_id as "ownerId", user_id as "userId", name, email,
  invite_token_hash as "inviteTokenHash", invite_token_encrypted as "inviteTokenEncrypted",
  invite_issued_at as "inviteIssuedAt", joined_at as "joinedAt",
  email_notification_delay as "emailNotificationDelay", created_at as "createdAt",
  updated_at as "updatedAt", deleted_at as "deletedAt", deleted_by as "deletedBy", language,
  array(select a.user_id from client_assignees a where a.client_id = clients.id
    order by a.assigned_at, a.user_id) as "assigneeIds",
  (select a.user_id from client_assignees a where a.client_id = clients.id and a.is_lead)
    as "leadUserId"`;

/** Where clients are read: the app's database handle and its cache of their rows. */
export interface ClientSource {
  db: Knex;
  clientCache: ClientCache;
}

/**
 * The client named in a path; undefined for an unknown or malformed id, or a deleted client (the
 * rules answer 404).
 * Every conversation request starts here, every message send included: from the cache
 * (client-cache.ts), else one named statement (PostgreSQL parses and plans it once per
 * connection).
 */
export async function findClient(
  { db, clientCache }: ClientSource,
  id: string | undefined,
): Promise<Client | undefined> {
  if (!id || !uuidSchema.safeParse(id).success) return undefined;
  const now = Date.now();
  const cached = clientCache.get(id, now);
  if (cached) return Client.fromJson(cached, { skipValidation: true });
  const mark = clientCache.mark;
  // A deleted client (issue 28) is not found: every conversation route answers 404 for it.
  const statement = db.raw(
    `select ${CLIENT_COLUMNS} from clients where id = ? and ${liveClientSql("clients")}`,
    [id],
  );
  if (!isPglite(db)) statement.options({ name: "find_client" });
  const result: { rows: Record<string, unknown>[] } = await statement;
  const row = result.rows[0];
  if (!row) return undefined;
  clientCache.set(id, row, now, mark);
  return Client.fromJson(row, { skipValidation: true });
}

/** Loads the client named by `id` and checks that `actor` may do `action` to it. */
export async function authorizedClient(
  source: ClientSource,
  actor: User,
  action: ClientAction,
  id: string | undefined,
): Promise<Client> {
  const client = await findClient(source, id);
  clientsPolicy.authorize(actor, action, client);
  return client!;
}
