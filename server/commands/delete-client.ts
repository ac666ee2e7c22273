import type { Services } from "../context";
import { notFound } from "../errors";
import { Client, Message, NotificationState, Session, ShortLink, User } from "../models";

/**
 * Deletes a client with everything of theirs in one transaction: messages, short link, read
 * state, files, the client user and that user's sessions. Then closes the user's open sockets
 * and removes the stored files' bytes.
 */
export async function deleteClient(services: Services, client: Client): Promise<void> {
  const { db, realtime, storage, logger } = services;
  const { userId, storedNames } = await db.transaction(async (trx) => {
    const locked = await Client.query(trx).findById(client.id).forUpdate();
    if (!locked) throw notFound("Client not found");
    const storedNames: string[] = await trx("files")
      .where("clientId", locked.id)
      .pluck("storedName");
    await Message.query(trx).delete().where("clientId", locked.id);
    await trx("files").delete().where("clientId", locked.id);
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
  for (const name of storedNames) {
    await storage
      .delete(name)
      .catch((error: unknown) =>
        logger.warn({ err: error, name }, "could not delete a stored file"),
      );
  }
}
