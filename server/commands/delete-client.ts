import type { Services } from "../context";
import { notFound } from "../errors";
import { Client, Message, NotificationState, Session, ShortLink, StoredFile, User } from "../models";
import { deleteStoredFiles } from "../storage/delete-stored-files";

/**
 * Deletes a client with everything of theirs in one transaction: messages, short link, read
 * state, files, the client user and that user's sessions. Then closes the user's open sockets
 * and removes the stored files' bytes and previews.
 */
export async function deleteClient(services: Services, client: Client): Promise<void> {
  const { db, realtime } = services;
  const { userId, storedNames } = await db.transaction(async (trx) => {
    const locked = await Client.query(trx).findById(client.id).forUpdate();
    if (!locked) throw notFound("Client not found");
    // Through the model: knex's pluck reads the raw column name, which the snake-case
    // mappers have already renamed (every name came back undefined).
    const storedNames = (
      await StoredFile.query(trx).select("storedName").where("clientId", locked.id)
    ).map((file) => file.storedName);
    await Message.query(trx).delete().where("clientId", locked.id);
    await StoredFile.query(trx).delete().where("clientId", locked.id);
    await ShortLink.query(trx).delete().where("clientId", locked.id);
    await NotificationState.query(trx).delete().where("clientId", locked.id);
    await Client.query(trx).deleteById(locked.id);
    if (locked.userId) {
      await Session.query(trx).delete().where("userId", locked.userId);
      await User.query(trx).delete().where({ id: locked.userId, role: "client" });
    }
    return { userId: locked.userId, storedNames };
  });
  if (userId) await realtime.disconnectUsers([userId]);
  await deleteStoredFiles(services, storedNames);
}
