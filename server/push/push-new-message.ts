import type { Services } from "../context";
import { type Client, type Message, PushSubscription, User } from "../models";
import { usersWithOpenSocket } from "./presence";
import { pushPayload } from "./push-payload";
import { sendPush } from "./push-sender";

/**
 * After a message (text or file) is stored and answered: pushes it to the browsers of its
 * recipients (`recipientIds`: the client user, or the staff the conversation's emails go to,
 * policies/conversation-sides.ts), except those with an open socket somewhere (they see it
 * in the app). Queued after the answer (services.afterAnswer): sending never delays or fails
 * the request.
 */
export function pushNewMessage(
  services: Services,
  recipientIds: readonly string[],
  sender: User,
  client: Client,
  message: Message,
): void {
  // Open here: they see it in the app, and no query is needed to know it.
  const away = recipientIds.filter((id) => !services.presence.isHere(id));
  if (away.length === 0) return;
  services.afterAnswer.add("new message push", () =>
    pushToUsers(services, away, sender, client, message),
  );
}

async function pushToUsers(
  services: Services,
  recipientIds: string[],
  sender: User,
  client: Client,
  message: Message,
): Promise<void> {
  const subscriptions = await PushSubscription.query(services.db)
    .select("pushSubscriptions.*")
    // Only browsers whose session is still live: a signed-out device gets no message text.
    .join("sessions", "sessions.idHash", "pushSubscriptions.sessionHash")
    .whereIn("pushSubscriptions.userId", recipientIds)
    .where("sessions.expiresAt", ">", services.clock.now());
  if (subscriptions.length === 0) return;
  const [present, agency] = await Promise.all([
    usersWithOpenSocket(services, [...new Set(subscriptions.map((s) => s.userId))]),
    agencyOf(services, sender, client),
  ]);
  const payload = pushPayload(services.config.appUrl, sender, client, message, agency);
  await Promise.all(
    subscriptions
      .filter((subscription) => !present.has(subscription.userId))
      .map((subscription) => sendPush(services, subscription, payload)),
  );
}

/**
 * The workspace's owner as the client knows the agency, for a team member's message to the
 * client (its push names the member, then the agency); otherwise the sender is all it needs.
 */
async function agencyOf(
  services: Services,
  sender: User,
  client: Client,
): Promise<Pick<User, "fullName" | "companyName"> | undefined> {
  if (sender.role !== "owner" || sender.id === client.ownerId) return undefined;
  return User.query(services.db).select("fullName", "companyName").findById(client.ownerId);
}
