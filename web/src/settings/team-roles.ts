import type { InvitedRole, TeamRole } from "../../../shared/schemas/team";

export const ROLE_LABELS: Record<TeamRole, string> = {
  owner: "Owner",
  admin: "Admin",
  member: "Member",
};

/** What each role one can give lets a person see and do. */
export const ROLE_HINTS: Record<InvitedRole, string> = {
  admin: "Admin: every client and the team.",
  member: "Member: only the clients assigned to them.",
};
