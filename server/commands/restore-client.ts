import { TIER_CONFIG, canCreateMoreClients } from "../../shared/tiers";
import { recordAudit } from "../audit/record-audit";
import { featureTier } from "../billing/feature-tier";
import type { Services } from "../context";
import { forbidden, notFound } from "../errors";
import { Client, User } from "../models";
import { findRestorableClient } from "../queries/deleted-clients";

/**
 * Brings a deleted client back (issue 28) with its whole conversation, files and contacts, within
 * the plan's client limit (the owner row is locked for the count, as adding a client does). Its
 * contacts' sessions ended with the deletion: they sign in again by their links. ClientRestored
 * tells the staff's pages. 404 when it is not the workspace's or its days have passed.
 */
export async function restoreClient(
  services: Services,
  actor: User,
  clientId: string | undefined,
): Promise<Client> {
  const { db, config, clock } = services;
  const workspaceId = actor.workspaceId ?? actor.id;
  const restored = await db.transaction(async (trx) => {
    const owner = await User.query(trx).findById(workspaceId).forUpdate().throwIfNotFound();
    const client = clientId
      ? await findRestorableClient(trx, workspaceId, clientId, clock.now())
      : undefined;
    if (!client) throw notFound("Client not found");
    const tier = featureTier(config, owner.accountTier);
    if (!canCreateMoreClients(tier, await Client.countOfOwner(trx, owner.id))) {
      throw forbidden("Client limit reached. Upgrade your {{plan}} plan to restore this client", {
        plan: TIER_CONFIG[tier].name,
      });
    }
    await Client.query(trx).patch({ deletedAt: null, deletedBy: null }).where("id", client.id);
    await recordAudit(services, trx, {
      workspaceId,
      actor,
      action: "client.restored",
      subject: { type: "client", id: client.id, label: client.name },
    });
    const event = { type: "ClientRestored", clientId: client.id, workspaceId } as const;
    return { client, recorded: await services.events.record(trx, event) };
  });
  services.events.dispatch(restored.recorded);
  return restored.client;
}
