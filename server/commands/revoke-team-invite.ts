import type { Services } from "../context";
import { notFound } from "../errors";
import { TeamInvite, type User } from "../models";
import { teamPolicy } from "../policies/team";
import { isUuid } from "../validate";

/**
 * Withdraws an open invite of the actor's workspace: its link stops working at once, and
 * TeamChanged tells the workspace's open Team tabs (the invite and its seat are gone).
 */
export async function revokeTeamInvite(services: Services, actor: User, id: string): Promise<void> {
  teamPolicy.authorize(actor, "manage");
  if (!isUuid(id)) throw notFound("Invite not found");
  const workspaceId = actor.workspaceId!;
  const recorded = await services.db.transaction(async (trx) => {
    const withdrawn = await TeamInvite.query(trx)
      .patch({ revokedAt: services.clock.now() })
      .where({ id, workspaceId })
      .whereNull("acceptedAt")
      .whereNull("revokedAt");
    if (withdrawn === 0) throw notFound("Invite not found");
    return await services.events.record(trx, { type: "TeamChanged", workspaceId });
  });
  services.events.dispatch(recorded);
}
