import type { AppContext } from "../../context";
import { currentUser } from "../../middlewares/authenticated";
import { idempotent } from "../../middlewares/idempotent";
import { Message } from "../../models";
import { authorizedClient } from "../../policies/clients";
import { visibilitiesFor } from "../../policies/conversation-sides";
import { presentMessage } from "../../presenters/message";
import { loadMessage, loadMessageView } from "../../queries/load-conversation";

/** For the POSTs that store one message (text, upload, new version): see middlewares/idempotent.ts. */
export const idempotentMessagePost = idempotent({ presentStored: presentStoredMessage });

/**
 * The answer of a message POST whose message was stored but whose answer was never saved (the
 * process died in between): 201 with that message as it is now.
 */
async function presentStoredMessage(ctx: AppContext, messageId: string): Promise<void> {
  const actor = currentUser(ctx);
  const { db } = ctx.services;
  const message = await Message.query(db).findById(messageId).throwIfNotFound();
  const client = await authorizedClient(ctx.services, actor, "readMessages", message.clientId);
  const row = await loadMessage(db, client.id, messageId, visibilitiesFor(actor.role));
  ctx.status = 201;
  ctx.body = presentMessage(row, await loadMessageView(db, actor, client));
}
