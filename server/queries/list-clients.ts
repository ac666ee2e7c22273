import { InviteTokens } from "../auth/invite-tokens";
import { withFeatures } from "../billing/feature-tier";
import type { Services } from "../context";
import { Client, type ConversationStats, NO_STATS, type User } from "../models";

/** A client as it is presented: its owner (with plan features), stats, invite token. */
export interface ClientView {
  client: Client;
  owner: User;
  stats: ConversationStats;
  /** The live invite token, for the owner of a client that has not joined; null otherwise. */
  inviteToken: string | null;
}

function visibleInviteToken(tokens: InviteTokens, viewer: User, client: Client): string | null {
  if (viewer.id !== client.ownerId || client.joinedAt) return null;
  return tokens.reveal(client.id, client.inviteTokenEncrypted);
}

/** The owner's clients with their stats, newest activity first. */
export async function listClients(services: Services, owner: User): Promise<ClientView[]> {
  const rows = await Client.withStats(services.db, "owner", { ownerId: owner.id });
  const shownOwner = withFeatures(services.config, owner);
  const tokens = new InviteTokens(services.config.sessionSecret);
  return rows.map(({ client, stats }) => ({
    client,
    owner: shownOwner,
    stats,
    inviteToken: visibleInviteToken(tokens, owner, client),
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
      : await client.$relatedQuery("owner", services.db).throwIfNotFound();
  const current = row?.client ?? client;
  return {
    client: current,
    owner: withFeatures(services.config, owner),
    stats: row?.stats ?? NO_STATS,
    inviteToken: visibleInviteToken(
      new InviteTokens(services.config.sessionSecret),
      viewer,
      current,
    ),
  };
}
