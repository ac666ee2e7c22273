import type { InvitedRole } from "../../shared/schemas/team";
import { recordAudit } from "../audit/record-audit";
import type { Services } from "../context";
import { User } from "../models";
import { teamPolicy } from "../policies/team";
import { findTeamMember } from "../queries/team-members";

/**
 * Gives a member of the actor's workspace another role (admin or member). TeamChanged tells the
 * workspace's open pages, the member's own among them: their menus follow the new role.
 */
export async function changeTeamRole(
  services: Services,
  actor: User,
  memberId: string,
  role: InvitedRole,
): Promise<User> {
  const workspaceId = actor.workspaceId;
  const { changed, recorded } = await services.db.transaction(async (trx) => {
    const member = workspaceId ? await findTeamMember(trx, workspaceId, memberId) : undefined;
    teamPolicy.authorize(actor, "changeRole", member);
    // Still in the workspace, and not its owner: a removal at the same moment wins (404).
    const [changed] = await User.query(trx)
      .patch({ teamRole: role })
      .where({ id: member!.id, workspaceId: workspaceId! })
      .whereNot("teamRole", "owner")
      .returning("*");
    if (!changed) teamPolicy.authorize(actor, "changeRole", undefined);
    await recordAudit(services, trx, {
      workspaceId: workspaceId!,
      actor,
      action: "member.role_changed",
      subject: { type: "member", id: member!.id, label: member!.fullName },
      details: { previousRole: member!.teamRole!, role },
    });
    const recorded = await services.events.record(trx, {
      type: "TeamChanged",
      workspaceId: workspaceId!,
    });
    return { changed: changed!, recorded };
  });
  services.events.dispatch(recorded);
  return changed;
}
