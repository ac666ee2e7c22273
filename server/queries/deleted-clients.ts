import type { Knex } from "knex";
import { Client, User } from "../models";

const DAY_MS = 86_400_000;

/** The days workspace `workspaceId` keeps a deleted client for a restore (0: none). */
export async function retentionDaysOf(db: Knex, workspaceId: string): Promise<number> {
  const owner = await User.query(db).select("deletedClientRetentionDays").findById(workspaceId);
  return owner?.deletedClientRetentionDays ?? 0;
}

/** When a client deleted at `deletedAt` is removed for good, kept `days` days. */
export const purgeDateOf = (deletedAt: Date, days: number) =>
  new Date(deletedAt.getTime() + days * DAY_MS);

/** A deleted client that can still be restored, and who deleted it (by name). */
export interface DeletedClientView {
  client: Client;
  deletedByName: string | null;
  purgeAt: Date;
}

/**
 * The deleted clients of workspace `workspaceId` whose days have not passed at `now` (one past
 * them is as good as purged, whether or not the job has run yet), newest deletion first.
 */
export async function listDeletedClients(
  db: Knex,
  workspaceId: string,
  now: Date,
): Promise<DeletedClientView[]> {
  const days = await retentionDaysOf(db, workspaceId);
  if (days === 0) return [];
  const rows = await Client.query(db)
    .select("clients.*", "deleter.fullName as deletedByName")
    .leftJoin("users as deleter", "deleter.id", "clients.deletedBy")
    .where("clients.ownerId", workspaceId)
    .whereNotNull("clients.deletedAt")
    .where("clients.deletedAt", ">", new Date(now.getTime() - days * DAY_MS))
    .orderBy([
      { column: "clients.deletedAt", order: "desc" },
      { column: "clients.id", order: "asc" },
    ]);
  return rows.map((row) => {
    const { deletedByName, ...columns } = row as Client & { deletedByName: string | null };
    const client = Client.fromJson(columns, { skipValidation: true });
    return { client, deletedByName, purgeAt: purgeDateOf(client.deletedAt!, days) };
  });
}

/** Deleted client `id` of workspace `workspaceId` while it can still be restored at `now`. */
export async function findRestorableClient(
  db: Knex,
  workspaceId: string,
  id: string,
  now: Date,
): Promise<Client | undefined> {
  const found = await listDeletedClients(db, workspaceId, now);
  return found.find((view) => view.client.id === id)?.client;
}

/**
 * Deleted clients whose days have passed at `now` (each workspace's days as they are now), up
 * to `limit`, locked for the caller's transaction and skipped by other instances' (SKIP LOCKED).
 */
export async function lockPurgeableClients(
  trx: Knex.Transaction,
  now: Date,
  limit: number,
): Promise<{ id: string; ownerId: string; name: string }[]> {
  const result: { rows: { id: string; ownerId: string; name: string }[] } = await trx.raw(
    `select c.id, c.owner_id as "ownerId", c.name
       from clients c join users o on o.id = c.owner_id
      where c.deleted_at is not null
        and c.deleted_at + o.deleted_client_retention_days * interval '1 day' <= ?
      order by c.deleted_at
      limit ?
      for update of c skip locked`,
    [now, limit],
  );
  return result.rows;
}
