import type { InvitedRole } from "../../shared/schemas/team";
import { BaseModel } from "./BaseModel";

/** An invitation to join a workspace (migration 20261129040000_team_invites). */
export class TeamInvite extends BaseModel {
  static override tableName = "team_invites";

  id!: string;
  workspaceId!: string;
  email!: string;
  role!: InvitedRole;
  tokenHash!: string;
  invitedBy!: string | null;
  createdAt!: Date;
  expiresAt!: Date;
  acceptedAt!: Date | null;
  revokedAt!: Date | null;
}
