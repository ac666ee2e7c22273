import { z } from "zod";

/** A workspace member's role (issue 26): the owner, admins (every client), members (assigned ones). */
export const TEAM_ROLES = ["owner", "admin", "member"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** A member of the signed-in person's workspace, as GET /api/team/members lists them. */
export const teamMemberSchema = z.strictObject({
  id: z.string(),
  fullName: z.string(),
  email: z.string(),
  role: z.enum(TEAM_ROLES),
  profilePicture: z.string().nullable(),
  joinedAt: z.string(),
});
export type TeamMember = z.infer<typeof teamMemberSchema>;

export const teamMembersResponse = z.array(teamMemberSchema);
