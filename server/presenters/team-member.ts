import type { TeamMember } from "../../shared/schemas/team";
import type { User } from "../models";
import { fileUrl } from "./user";

/** Every field of a workspace member that leaves the server, listed. */
export function presentTeamMember(user: User): TeamMember {
  return {
    id: user.id,
    fullName: user.fullName,
    email: user.email,
    // Never null in a workspace (the users_workspace_by_side constraint).
    role: user.teamRole!,
    profilePicture: fileUrl(user.profilePicture),
    joinedAt: user.createdAt.toISOString(),
  };
}
