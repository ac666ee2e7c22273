import type { Services } from "../context";
import { type Client, type Message, PushSubscription, type User } from "../models";
import { usersWithOpenSocket } from "./presence";
import { pushPayload } from "./push-payload";
import { sendPush } from "./push-sender";

/**
 * After a message (text or file) is stored and answered: pushes it to the recipient's
 * browsers, unless the recipient has an open socket somewhere (they see it in the app).
 * Queued after the answer (services.afterAnswer): sending never delays or fails the request.
 */
export function pushNewMessage(
  services: Services,
  sender: User,
  client: Client,
  message: Message,
): void {
  const recipientId = sender.role === "owner" ? client.userId : client.ownerId;
  // Open here: they see it in the app, and no query is needed to know it.
  if (!recipientId || services.presence.isHere(recipientId)) return;
  services.afterAnswer.add("new message push", () =>
    pushToUser(services, recipientId, sender, client, message),
  );
}

async function pushToUser(
  services: Services,
  recipientId: string,
  sender: User,
  client: Client,
  message: Message,
): Promise<void> {
  const subscriptions = await PushSubscription.query(services.db)
    .select("pushSubscriptions.*")
    // Only browsers whose session is still live: a signed-out device gets no message text.
    .join("sessions", "sessions.idHash", "pushSubscriptions.sessionHash")
    .where("pushSubscriptions.userId", recipientId)
    .where("sessions.expiresAt", ">", services.clock.now());
  if (subscriptions.length === 0) return;
  if ((await usersWithOpenSocket(services, [recipientId])).has(recipientId)) return;
  const payload = pushPayload(services.config.appUrl, sender, client, message);
  await Promise.all(subscriptions.map((subscription) => sendPush(services, subscription, payload)));
}
