import { delayOfContact } from "./list-contacts";
import { InviteTokens } from "../auth/invite-tokens";
import { withFeatures } from "../billing/feature-tier";
import type { Services } from "../context";
import { Client, type ConversationStats, NO_STATS, User } from "../models";
import { workspaceOwnerOf } from "./workspace-owner";

/** A client as it is presented: its owner (with plan features), stats, invite token. */
export interface ClientView {
  client: Client;
  owner: User;
  stats: ConversationStats;
  /** The live invite token, for the owner of a client that has not joined; null otherwise. */
  inviteToken: string | null;
}

function visibleInviteToken(tokens: InviteTokens, viewer: User, client: Client): string | null {
  if (viewer.role !== "owner" || client.joinedAt) return null;
  return tokens.reveal(client.id, client.inviteTokenEncrypted);
}

/**
 * The clients a staff member has (all of the workspace's for its owner and admins, the
 * assigned ones for a member) with their stats, newest activity first.
 */
export async function listClients(services: Services, staff: User): Promise<ClientView[]> {
  const workspaceId = staff.workspaceId ?? staff.id;
  const [rows, owner] = await Promise.all([
    Client.withStats(
      services.db,
      "owner",
      // A workspace's member has the clients assigned to them; its owner and admins, every one.
      staff.teamRole === "member"
        ? { ownerId: workspaceId, assigneeId: staff.id }
        : { ownerId: workspaceId },
    ),
    workspaceOwnerOf(services.db, staff),
  ]);
  const shownOwner = withFeatures(services.config, owner);
  const tokens = new InviteTokens(services.config.sessionSecret);
  return rows.map(({ client, stats }) => ({
    client,
    owner: shownOwner,
    stats,
    inviteToken: visibleInviteToken(tokens, staff, client),
  }));
}

/** One client as its owner or its client user sees it (stats from the viewer's side). */
export async function loadClient(
  services: Services,
  viewer: User,
  client: Client,
): Promise<ClientView> {
  const [row] = await Client.withStats(services.db, viewer.role, { clientId: client.id });
  const owner =
    viewer.id === client.ownerId
      ? viewer
      : await User.query(services.db).findById(client.ownerId).throwIfNotFound();
  const current = row?.client ?? client;
  // A further contact of the client (issue 26) sees their own email delay.
  const delay =
    viewer.role === "client" && viewer.id !== current.userId
      ? await delayOfContact(services.db, current, viewer.id)
      : undefined;
  return {
    client:
      delay === undefined ? current : current.$clone().$set({ emailNotificationDelay: delay }),
    owner: withFeatures(services.config, owner),
    stats: row?.stats ?? NO_STATS,
    inviteToken: visibleInviteToken(
      new InviteTokens(services.config.sessionSecret),
      viewer,
      current,
    ),
  };
}
