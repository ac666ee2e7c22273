import type { Services } from "../context";
import { notFound } from "../errors";
import { TeamInvite, type User } from "../models";
import { teamPolicy } from "../policies/team";
import { isUuid } from "../validate";

/** Withdraws an open invite of the actor's workspace: its link stops working at once. */
export async function revokeTeamInvite(services: Services, actor: User, id: string): Promise<void> {
  teamPolicy.authorize(actor, "manage");
  const withdrawn = isUuid(id)
    ? await TeamInvite.query(services.db)
        .patch({ revokedAt: services.clock.now() })
        .where({ id, workspaceId: actor.workspaceId! })
        .whereNull("acceptedAt")
        .whereNull("revokedAt")
    : 0;
  if (withdrawn === 0) throw notFound("Invite not found");
}
