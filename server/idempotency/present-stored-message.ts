import type { AppContext } from "../context";
import { currentUser } from "../middlewares/authenticated";
import { loadMessage, loadMessageView } from "../commands/load-conversation";
import { Message } from "../models";
import { authorizedClient } from "../policies/clients";
import { presentMessage } from "../presenters/message";

/**
 * The answer of a message POST whose message was stored but whose answer was never saved (the
 * process died in between): 201 with that message as it is now.
 */
export async function presentStoredMessage(ctx: AppContext, messageId: string): Promise<void> {
  const actor = currentUser(ctx);
  const { db } = ctx.services;
  const message = await Message.query(db).findById(messageId).throwIfNotFound();
  const client = await authorizedClient(db, actor, "readMessages", message.clientId);
  const row = await loadMessage(db, client.id, messageId);
  ctx.status = 201;
  ctx.body = presentMessage(row, await loadMessageView(db, actor, client));
}
