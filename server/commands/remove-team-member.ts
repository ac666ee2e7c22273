import { recordAudit } from "../audit/record-audit";
import type { Services } from "../context";
import { User } from "../models";
import { teamPolicy } from "../policies/team";
import { findTeamMember } from "../queries/team-members";
import { endSessionsOf } from "./end-sessions";

/**
 * Takes a member out of the actor's workspace. Their account stays, back in a workspace of
 * their own (as at sign-up); every session of theirs ends and, once committed, their sockets
 * close on every instance. What they wrote stays, under their name (messages keep sender_id).
 * TeamChanged tells the rest of the workspace's open Team tabs.
 */
export async function removeTeamMember(
  services: Services,
  actor: User,
  memberId: string,
): Promise<void> {
  const workspaceId = actor.workspaceId;
  const recorded = await services.db.transaction(async (trx) => {
    const member = workspaceId ? await findTeamMember(trx, workspaceId, memberId) : undefined;
    teamPolicy.authorize(actor, "remove", member);
    const moved = await User.query(trx)
      .patch({ workspaceId: member!.id, teamRole: "owner" })
      .where({ id: member!.id, workspaceId: workspaceId! })
      .whereNot("teamRole", "owner");
    // Removed or made owner by someone else at the same moment.
    if (moved === 0) teamPolicy.authorize(actor, "remove", undefined);
    // Their assignments go (the users_left_workspace trigger would too): said by this statement,
    // this instance's client cache forgets them at once, announced or not (PGlite).
    await trx("client_assignees").delete().where("userId", member!.id);
    await recordAudit(services, trx, {
      workspaceId: workspaceId!,
      actor,
      action: "member.removed",
      subject: { type: "member", id: member!.id, label: member!.fullName },
    });
    const ended = await endSessionsOf(services, trx, member!.id);
    const teamChanged = await services.events.record(trx, {
      type: "TeamChanged",
      workspaceId: workspaceId!,
    });
    return ended ? [ended, teamChanged] : [teamChanged];
  });
  services.events.dispatch(recorded);
}
