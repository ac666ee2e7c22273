import type { AppContext } from "../context";
import { currentUser } from "../middlewares/authenticated";
import { Message } from "../models";
import { authorizedClient } from "../policies/clients";
import { messagesWithFiles, messageViewFor, presentMessage } from "../presenters/message";

/**
 * The answer of a message POST whose message was stored but whose answer was never saved (the
 * process died in between): 201 with that message as it is now.
 */
export async function presentStoredMessage(ctx: AppContext, messageId: string): Promise<void> {
  const actor = currentUser(ctx);
  const message = await Message.query().findById(messageId).throwIfNotFound();
  const client = await authorizedClient(actor, "readMessages", message.clientId);
  const row = await messagesWithFiles(client.id).where("m.id", messageId).first().throwIfNotFound();
  ctx.status = 201;
  ctx.body = presentMessage(row, await messageViewFor(actor, client));
}
