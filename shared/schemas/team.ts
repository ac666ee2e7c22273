import { z } from "zod";
import { emailSchema } from "./common";
import { msg } from "../i18n/msg";

/** A workspace member's role (issue 26): the owner, admins (every client), members (assigned ones). */
export const TEAM_ROLES = ["owner", "admin", "member"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** The roles one can be invited to or given: a workspace has one owner. */
export const INVITED_ROLES = ["admin", "member"] as const;
export type InvitedRole = (typeof INVITED_ROLES)[number];
const invitedRole = z.enum(INVITED_ROLES, { error: msg("Role must be admin or member") });

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

/** POST /api/team/members: invites an address to the workspace. */
export const inviteTeamMemberInput = z.strictObject({ email: emailSchema, role: invitedRole });
export type InviteTeamMemberInput = z.infer<typeof inviteTeamMemberInput>;

/** PATCH /api/team/members/{id}. */
export const changeTeamRoleInput = z.strictObject({ role: invitedRole });
export type ChangeTeamRoleInput = z.infer<typeof changeTeamRoleInput>;

/**
 * POST /api/team/owner: the owner hands the workspace to one of its people, who becomes its
 * owner (plan, billing and branding with it); the former owner stays, as an admin. The owner's
 * password confirms it (a Google-only owner: a sign-in within 10 minutes).
 */
export const transferOwnershipInput = z.strictObject({
  userId: z.string({ error: msg("Choose who becomes the owner") }).max(100),
  password: z.string().max(200, msg("Password is too long")).optional(),
});
export type TransferOwnershipInput = z.infer<typeof transferOwnershipInput>;

/** A pending invite as the owner and admins list it (GET /api/team/invites). */
export const teamInviteSchema = z.strictObject({
  id: z.string(),
  email: z.string(),
  role: z.enum(INVITED_ROLES),
  invitedAt: z.string(),
  expiresAt: z.string(),
  /** Null once the person who sent it has deleted their account. */
  invitedByName: z.string().nullable(),
});
export type TeamInvite = z.infer<typeof teamInviteSchema>;
export const teamInvitesResponse = z.array(teamInviteSchema);

/** The invite just made (POST /api/team/members): its link, shown this once. */
export const issuedTeamInviteSchema = teamInviteSchema.omit({ invitedByName: true }).extend({
  inviteUrl: z.string(),
  inviteToken: z.string(),
});
export type IssuedTeamInvite = z.infer<typeof issuedTeamInviteSchema>;

/** What the join page shows (GET /api/team/invites/{token}, public). */
export const teamInviteLookupSchema = z.strictObject({
  workspaceName: z.string(),
  invitedByName: z.string(),
  email: z.string(),
  role: z.enum(INVITED_ROLES),
});
export type TeamInviteLookup = z.infer<typeof teamInviteLookupSchema>;
