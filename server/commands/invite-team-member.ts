import type { InviteTeamMemberInput } from "../../shared/schemas/team";
import { recordAudit } from "../audit/record-audit";
import { newTeamInviteToken, teamInviteUrl } from "../auth/team-invite-tokens";
import { featureTier } from "../billing/feature-tier";
import type { Services } from "../context";
import { conflict } from "../errors";
import { inviteeLanguage } from "../i18n/recipient-language";
import { teamInviteMail } from "../mail/team-mails";
import { TeamInvite, User } from "../models";
import { teamPolicy } from "../policies/team";
import { workspaceName } from "../presenters/team-invite";
import { seatsTaken } from "../queries/team-invites";
import { memberWithEmail } from "../queries/team-members";

export const TEAM_INVITE_DAYS = 7;

/**
 * Invites an address to the actor's workspace, or reissues its open invite (new token, the old
 * link dies, a new expiry, emailed again) rather than making a second. The workspace owner's row
 * is locked for the seat count and the write, so two invites cannot take the last seat together;
 * the plan is the owner's, never the acting admin's. The email goes to the outbox with the row,
 * and TeamChanged with it: the workspace's open Team tabs show the invite and the seats taken.
 */
export async function inviteTeamMember(
  services: Services,
  actor: User,
  input: InviteTeamMemberInput,
): Promise<{ invite: TeamInvite; token: string }> {
  const { db, config, clock } = services;
  teamPolicy.authorize(actor, "manage");
  const workspaceId = actor.workspaceId!;
  const issued = newTeamInviteToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + TEAM_INVITE_DAYS * 24 * 3_600_000);
  const { recorded, ...invited } = await db.transaction(async (trx) => {
    const owner = await User.query(trx).findById(workspaceId).forUpdate().throwIfNotFound();
    const tier = featureTier(config, owner.accountTier);
    teamPolicy.authorize(actor, "invite", tier);
    if (await memberWithEmail(trx, workspaceId, input.email)) {
      throw conflict("{{email}} is already in your team", { email: input.email });
    }
    const open = await TeamInvite.query(trx)
      .findOne({ workspaceId, email: input.email })
      .whereNull("acceptedAt")
      .whereNull("revokedAt");
    // A pending invite already holds its seat; an expired one takes one again.
    const holdsSeat = open !== undefined && open.expiresAt > now;
    const taken = (await seatsTaken(trx, workspaceId, now)) - (holdsSeat ? 1 : 0);
    teamPolicy.authorize(actor, "takeSeat", { tier, taken, extra: owner.extraSeats });
    const fields = {
      role: input.role,
      tokenHash: issued.hash,
      invitedBy: actor.id,
      createdAt: now,
      expiresAt,
    };
    const invite = open
      ? await TeamInvite.query(trx).patchAndFetchById(open.id, fields)
      : await TeamInvite.query(trx).insertAndFetch({ ...fields, workspaceId, email: input.email });
    const mail = teamInviteMail(input.email, {
      // Not a user yet: the workspace's language.
      language: inviteeLanguage(null, owner),
      inviterName: actor.fullName,
      workspaceName: workspaceName(owner),
      role: input.role,
      url: teamInviteUrl(config.appUrl, issued.token),
    });
    await services.outbox.enqueue(trx, mail, "team-invite");
    await recordAudit(services, trx, {
      workspaceId,
      actor,
      action: "member.invited",
      subject: { type: "invite", id: invite.id, label: input.email },
      details: { role: input.role, ...(open ? { reissued: true } : {}) },
    });
    const recorded = await services.events.record(trx, { type: "TeamChanged", workspaceId });
    return { invite, token: issued.token, recorded };
  });
  services.events.dispatch(recorded);
  return invited;
}
