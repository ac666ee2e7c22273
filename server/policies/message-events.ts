import type { Visibility } from "../../shared/schemas/message-payload";
import type { Role } from "../../shared/schemas/user";
import { mayRead } from "./conversation-sides";

/**
 * The sides of a conversation a new message's event may show it to (each as its own view,
 * server/presenters/message.ts): those who may read the conversation, so the owner, and the
 * client once joined. A side left out gets ids only and asks the API, whose rules decide;
 * an internal note's (issue 26) goes to the owner's side only, not even its ids to the client.
 */
export function sidesThatMaySee(
  conversation: { joinedAt: Date | null },
  visibility: Visibility | undefined = "client",
): Role[] {
  const sides: Role[] = conversation.joinedAt ? ["owner", "client"] : ["owner"];
  return sides.filter((side) => mayRead(side, visibility));
}

/**
 * The sides a message's events go to at all: both, or for an internal note (issue 26) the
 * owner's only (undefined: both). Decided from the event alone, so a left-over event run
 * again without its rows keeps the note's ids from the client's sockets too.
 */
export function sidesThatHear(visibility: Visibility | undefined): readonly Role[] | undefined {
  return mayRead("client", visibility) ? undefined : ["owner"];
}
