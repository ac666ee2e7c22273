import type { Knex } from "knex";
import { recordAudit } from "../audit/record-audit";
import type { Services } from "../context";
import { notFound } from "../errors";
import {
  Client,
  Message,
  NotificationState,
  Session,
  ShortLink,
  StoredFile,
  User,
} from "../models";
import { retentionDaysOf } from "../queries/deleted-clients";
import { deleteStoredFiles } from "../storage/delete-stored-files";
import { keepDeletedClient } from "./keep-deleted-client";

/** What deleting a client's rows leaves to do after the commit. */
export interface DeletedClient {
  /** The client's contacts' users, whose open sockets close. */
  userIds: string[];
  /** The stored files whose bytes and previews go. */
  storedNames: string[];
}

/**
 * Deletes a client's rows inside `trx`: messages, short link, read state, files, the client
 * user and that user's sessions. Undefined when the client is already gone.
 */
export async function deleteClientRows(
  trx: Knex.Transaction,
  clientId: string,
): Promise<DeletedClient | undefined> {
  const locked = await Client.query(trx).findById(clientId).forUpdate();
  if (!locked) return undefined;
  // Through the model: knex's pluck reads the raw column name, which the snake-case
  // mappers have already renamed (every name came back undefined).
  const storedNames = (
    await StoredFile.query(trx).select("storedName").where("clientId", locked.id)
  ).map((file) => file.storedName);
  await Message.query(trx).delete().where("clientId", locked.id);
  await StoredFile.query(trx).delete().where("clientId", locked.id);
  await ShortLink.query(trx).delete().where("clientId", locked.id);
  await NotificationState.query(trx).delete().where("clientId", locked.id);
  // Every contact's user (issue 26), read before the client goes (their client_id empties then).
  const userIds = (
    await User.query(trx).select("id").where({ clientId: locked.id, role: "client" })
  ).map((user) => user.id);
  await Client.query(trx).deleteById(locked.id);
  if (userIds.length > 0) {
    await Session.query(trx).delete().whereIn("userId", userIds);
    await User.query(trx).delete().whereIn("id", userIds).where("role", "client");
  }
  return { userIds, storedNames };
}

/**
 * Deletes a client. A workspace that keeps deleted clients (issue 28) gets it set aside
 * (keepDeletedClient), restorable until the purge; otherwise it goes at once with everything of
 * theirs, in one transaction with ClientDeleted (the contacts' open sockets close) and its audit
 * entry, and then the stored files' bytes and previews go.
 */
export async function deleteClient(services: Services, actor: User, client: Client): Promise<void> {
  const keptDays = await retentionDaysOf(services.db, client.ownerId);
  if (keptDays > 0) return keepDeletedClient(services, actor, client, keptDays);
  const deleted = await services.db.transaction(async (trx) => {
    const rows = await deleteClientRows(trx, client.id);
    if (!rows) return undefined;
    await recordAudit(services, trx, {
      workspaceId: client.ownerId,
      actor,
      action: "client.deleted",
      subject: { type: "client", id: client.id, label: client.name },
    });
    const event = { type: "ClientDeleted", clientId: client.id, userIds: rows.userIds } as const;
    return { ...rows, recorded: await services.events.record(trx, event) };
  });
  if (!deleted) throw notFound("Client not found");
  services.events.dispatch(deleted.recorded);
  await deleteStoredFiles(services, deleted.storedNames);
}
