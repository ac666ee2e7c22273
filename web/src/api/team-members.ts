import { useQuery } from "@tanstack/react-query";
import type { TeamMember, TeamRole } from "../../../shared/schemas/team";
import { apiGet } from "./client";
import { useCurrentUser } from "./current-user";
import { queryKeys } from "./query-keys";

/** GET /api/team/members: the signed-in person's workspace (issue 26). */
export function useTeamMembers(enabled = true) {
  return useQuery({
    queryKey: queryKeys.teamMembers,
    queryFn: () => apiGet<TeamMember[]>("/api/team/members"),
    enabled,
  });
}

/** The signed-in person's role in their workspace; undefined while unknown or for a client. */
export function useMyTeamRole(): TeamRole | undefined {
  const { data: user } = useCurrentUser();
  const members = useTeamMembers(user?.role === "owner");
  return members.data?.find((member) => member.id === user?.id)?.role;
}
