import { recordAudit } from "../audit/record-audit";
import { hashTeamInviteToken, isWellFormedTeamInviteToken } from "../auth/team-invite-tokens";
import type { Services } from "../context";
import { notFound } from "../errors";
import { TeamInvite, User } from "../models";
import { teamPolicy } from "../policies/team";
import { pendingInvites } from "../queries/team-invites";
import { ownWorkspaceInUse } from "../queries/team-members";

/** Unknown, expired, used or withdrawn: all alike, so a link tells nothing about the others. */
export const invalidTeamInvite = () => notFound("This team invite is no longer valid");

/**
 * The signed-in owner-side account joins the invite's workspace with its role, and the invite
 * is used up. The invite row is locked, so of two joins at once exactly one finds it. Only the
 * membership changes: password, Google link and sessions stay as they are. Open invites the
 * account had sent for its own (empty) workspace are withdrawn: it no longer runs one.
 * TeamChanged tells the workspace's open Team tabs that the invite became a member.
 */
export async function joinTeam(services: Services, actor: User, token: string): Promise<User> {
  if (!isWellFormedTeamInviteToken(token)) throw invalidTeamInvite();
  const now = services.clock.now();
  const { joined, recorded } = await services.db.transaction(async (trx) => {
    const invite = await TeamInvite.query(trx)
      .findOne({ tokenHash: hashTeamInviteToken(token) })
      .modify(pendingInvites(now))
      .forUpdate();
    if (!invite) throw invalidTeamInvite();
    const me = await User.query(trx).findById(actor.id).forUpdate().throwIfNotFound();
    teamPolicy.authorize(me, "join", {
      invite,
      ownWorkspaceInUse: me.role === "owner" && (await ownWorkspaceInUse(trx, me.id)),
    });
    await TeamInvite.query(trx).patch({ acceptedAt: now }).where("id", invite.id);
    await TeamInvite.query(trx)
      .patch({ revokedAt: now })
      .where("workspaceId", me.id)
      .whereNull("acceptedAt")
      .whereNull("revokedAt");
    const joined = await User.query(trx).patchAndFetchById(me.id, {
      workspaceId: invite.workspaceId,
      teamRole: invite.role,
    });
    await recordAudit(services, trx, {
      workspaceId: invite.workspaceId,
      actor: me,
      action: "member.joined",
      subject: { type: "member", id: me.id, label: me.fullName },
      details: { role: invite.role },
    });
    const recorded = await services.events.record(trx, {
      type: "TeamChanged",
      workspaceId: invite.workspaceId,
    });
    return { joined, recorded };
  });
  services.events.dispatch(recorded);
  return joined;
}
