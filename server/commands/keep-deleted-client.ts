import { recordAudit } from "../audit/record-audit";
import type { Services } from "../context";
import { notFound } from "../errors";
import { Client, Session, User } from "../models";

/**
 * Deletes a client while its workspace keeps deleted clients for `keptDays` (issue 28): the row
 * stays, marked deleted, with its conversation, files and contacts, until it is restored
 * (restore-client.ts) or purged (purge-deleted-clients.ts). From the commit on it is gone for
 * everyone (every read takes live clients only) and its contacts' sessions end, as with a
 * deletion at once: ClientDeleted closes their sockets and tells the staff's pages.
 */
export async function keepDeletedClient(
  services: Services,
  actor: User,
  client: Client,
  keptDays: number,
): Promise<void> {
  const recorded = await services.db.transaction(async (trx) => {
    const locked = await Client.live(trx).findById(client.id).forUpdate();
    if (!locked) return undefined;
    await Client.query(trx)
      .patch({ deletedAt: services.clock.now(), deletedBy: actor.id })
      .where("id", locked.id);
    const userIds = (
      await User.query(trx).select("id").where({ clientId: locked.id, role: "client" })
    ).map((user) => user.id);
    if (userIds.length > 0) await Session.query(trx).delete().whereIn("userId", userIds);
    await recordAudit(services, trx, {
      workspaceId: locked.ownerId,
      actor,
      action: "client.deleted",
      subject: { type: "client", id: locked.id, label: locked.name },
      details: { keptDays },
    });
    return services.events.record(trx, {
      type: "ClientDeleted",
      clientId: locked.id,
      userIds,
      workspaceId: locked.ownerId,
    });
  });
  if (!recorded) throw notFound("Client not found");
  services.events.dispatch(recorded);
}
