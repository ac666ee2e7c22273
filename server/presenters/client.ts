import { DEFAULT_COLORS } from "../../shared/defaults";
import type { ClientAssignees, ClientPayload } from "../../shared/schemas/clients";
import type { Client, User } from "../models";
import type { ClientView } from "../queries/list-clients";
import { shadesOf } from "./brand-shades";
import { fileUrl } from "./user";

function presentClientOwner(owner: User): ClientPayload["owner"] {
  return {
    fullName: owner.fullName,
    companyName: owner.companyName,
    accountTier: owner.accountTier,
    companyLogo: fileUrl(owner.companyLogo),
    profilePicture: fileUrl(owner.profilePicture),
    primaryColor: owner.primaryColor,
    backgroundColor: owner.backgroundColor,
    textColor: owner.textColor,
    // The portal shows an Agency owner's scheme, the defaults otherwise (portal-main.tsx).
    shades: shadesOf(owner.accountTier === "agency" ? owner : DEFAULT_COLORS),
  };
}

/** Every field of a client that leaves the server, listed. */
export function presentClient({ client, owner, stats, inviteToken }: ClientView): ClientPayload {
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
    language: client.language ?? null,
  };
}

/** Who handles a client (read with its row by findClient). */
export function presentAssignees(client: Client): ClientAssignees {
  return { assigneeIds: client.assigneeIds ?? [], leadUserId: client.leadUserId ?? null };
}
