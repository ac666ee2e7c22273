import type {
  IssuedTeamInvite,
  TeamInvite as TeamInvitePayload,
  TeamInviteLookup,
} from "../../shared/schemas/team";
import { ownerNameForClient } from "../../shared/owner-name";
import type { TeamInvite, User } from "../models";
import type { ListedTeamInvite } from "../queries/team-invites";

/** A pending invite as the owner and admins list it: every field, listed. */
export function presentTeamInvite(invite: ListedTeamInvite): TeamInvitePayload {
  return {
    id: invite.id,
    email: invite.email,
    role: invite.role,
    invitedAt: invite.createdAt.toISOString(),
    expiresAt: invite.expiresAt.toISOString(),
    invitedByName: invite.invitedByName,
  };
}

/** The invite just made or reissued, with its link (shown to the inviter this once). */
export function presentIssuedTeamInvite(
  invite: TeamInvite,
  link: { inviteUrl: string; inviteToken: string },
): IssuedTeamInvite {
  return {
    id: invite.id,
    email: invite.email,
    role: invite.role,
    invitedAt: invite.createdAt.toISOString(),
    expiresAt: invite.expiresAt.toISOString(),
    inviteUrl: link.inviteUrl,
    inviteToken: link.inviteToken,
  };
}

/** What the join page shows to whoever holds the link: names, the address and the role. */
export function presentTeamInviteLookup(found: {
  invite: TeamInvite;
  owner: User;
  inviter: User | undefined;
}): TeamInviteLookup {
  return {
    workspaceName: workspaceName(found.owner),
    invitedByName: (found.inviter ?? found.owner).fullName,
    email: found.invite.email,
    role: found.invite.role,
  };
}

/** A workspace is named as its owner is to clients: the company, else the owner's name. */
export const workspaceName = (owner: Pick<User, "fullName" | "companyName">) =>
  ownerNameForClient(owner);
