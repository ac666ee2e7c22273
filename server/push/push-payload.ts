import { ownerNameForClient } from "../../shared/owner-name";
import type { PushPayload } from "../../shared/schemas/push";
import type { Role } from "../../shared/schemas/user";
import type { Client, Message, User } from "../models";
import { conversationUrl } from "../conversation-url";

/** How much of a message a notification shows. */
export const PUSH_BODY_CHARACTERS = 100;

/** The first `max` characters (whole code points, so no emoji is cut in half), then "…" if more. */
export function firstCharacters(text: string, max = PUSH_BODY_CHARACTERS): string {
  const characters = Array.from(text.trim());
  return characters.length > max ? `${characters.slice(0, max).join("")}…` : characters.join("");
}

/**
 * The sender as the recipient knows them in the app: for the owner, the client's name in
 * their client list; for the client, the owner's company name (or full name) as the portal
 * shows it.
 */
export function senderName(sender: User, client: Client): string {
  if (sender.role === "client") return client.name;
  return ownerNameForClient(sender);
}

/** What a file message says in a notification (it has no text of its own). */
function fileLine(message: Message): string {
  const name = message.fileName ?? "a file";
  if (message.versionOf) return `New version of ${name} for your approval`;
  if (message.requiresFeedback) return `Sent ${name} for your approval`;
  return `Sent a file: ${name}`;
}

/** The notification for `message`, sent by `sender` in `client`'s conversation. */
export function pushPayload(
  appUrl: string,
  sender: User,
  client: Client,
  message: Message,
): PushPayload {
  const recipientRole: Role = sender.role === "owner" ? "client" : "owner";
  return {
    title: senderName(sender, client),
    body: firstCharacters(message.fileId ? fileLine(message) : (message.content ?? "")),
    url: conversationUrl(appUrl, recipientRole, client.id),
    tag: `conversation-${client.id}`,
  };
}
