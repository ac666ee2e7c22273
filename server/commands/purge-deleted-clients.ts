import { recordAudit } from "../audit/record-audit";
import type { Services } from "../context";
import type { RecordedEvent } from "../domain-events/events";
import { lockPurgeableClients } from "../queries/deleted-clients";
import { deleteStoredFiles } from "../storage/delete-stored-files";
import { deleteClientRows } from "./delete-client";

/** Clients purged per transaction. */
const BATCH = 20;

/** The audit log's name for the purge, which no person does. */
const RETENTION_ACTOR = { id: null, fullName: "Retention" };

/**
 * Removes for good the deleted clients whose days have passed (issue 28), as a deletion at
 * once does: their rows in one transaction per batch with ClientDeleted and an audit entry, then
 * their stored files' bytes and previews. The rows are taken FOR UPDATE SKIP LOCKED, so
 * instances running it together share the work and each client goes once; a crash before the
 * commit leaves them for the next pass, one after it leaves bytes to the storage sweep.
 * Answers how many went.
 */
export async function purgeDeletedClients(services: Services): Promise<number> {
  let purged = 0;
  for (;;) {
    const batch = await services.db.transaction(async (trx) => {
      const due = await lockPurgeableClients(trx, services.clock.now(), BATCH);
      const storedNames: string[] = [];
      const recorded: RecordedEvent[] = [];
      for (const client of due) {
        const rows = await deleteClientRows(trx, client.id);
        if (!rows) continue;
        storedNames.push(...rows.storedNames);
        await recordAudit(services, trx, {
          workspaceId: client.ownerId,
          actor: RETENTION_ACTOR,
          action: "client.purged",
          subject: { type: "client", id: client.id, label: client.name },
        });
        const event = {
          type: "ClientDeleted",
          clientId: client.id,
          userIds: rows.userIds,
        } as const;
        recorded.push(await services.events.record(trx, event));
      }
      return { count: due.length, storedNames, recorded };
    });
    for (const event of batch.recorded) services.events.dispatch(event);
    await deleteStoredFiles(services, batch.storedNames);
    purged += batch.count;
    if (batch.count < BATCH) return purged;
  }
}
