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
 * The sender as the recipient knows them in the app: for the owner's side, the client's name
 * in their client list; for the client, the workspace's owner as the portal names them
 * (company name, else full name), and a team member (issue 26) by their own name followed by
 * the agency (`agency`: the workspace's owner), as the portal labels their messages ("Sam
 * Staff · Studio Olivia"; the agency is left out when it is the same name).
 */
export function senderName(
  sender: User,
  client: Client,
  agency?: Pick<User, "fullName" | "companyName">,
): string {
  if (sender.role === "client") return client.name;
  if (!agency || sender.id === client.ownerId) return ownerNameForClient(sender);
  const agencyName = ownerNameForClient(agency);
  return agencyName === sender.fullName ? sender.fullName : `${sender.fullName} · ${agencyName}`;
}

/** What a file message says in a notification (it has no text of its own). */
function fileLine(message: Message): string {
  const name = message.fileName ?? "a file";
  if (message.versionOf) return `New version of ${name} for your approval`;
  if (message.requiresFeedback) return `Sent ${name} for your approval`;
  return `Sent a file: ${name}`;
}

/**
 * The notification for `message`, sent by `sender` in `client`'s conversation (`agency`: the
 * workspace's owner when a team member wrote to the client).
 */
export function pushPayload(
  appUrl: string,
  sender: User,
  client: Client,
  message: Message,
  agency?: Pick<User, "fullName" | "companyName">,
): PushPayload {
  const recipientRole: Role = sender.role === "owner" ? "client" : "owner";
  return {
    title: senderName(sender, client, agency),
    body: firstCharacters(message.fileId ? fileLine(message) : (message.content ?? "")),
    url: conversationUrl(appUrl, recipientRole, client.id),
    tag: `conversation-${client.id}`,
  };
}
