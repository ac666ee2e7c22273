import type { Role } from "../../shared/schemas/user";
import type { ClientLink } from "./files";

/**
 * The sides of a conversation a new message's event may show it to (each as its own view,
 * server/presenters/message.ts): those who may read the conversation, so the owner, and the
 * client once joined. A side left out gets ids only and asks the API, whose rules decide.
 */
export function sidesThatMaySee(conversation: ClientLink): Role[] {
  return conversation.userId ? ["owner", "client"] : ["owner"];
}
