import type { Message } from "./messages-query";

/**
 * Who wrote a message, by their own name: the team member on the owner's side, the client
 * user on the client's (a server before authors sent only the side's name).
 */
export function authorOf(message: Message): string {
  return message.authorName ?? message.senderName;
}

/**
 * The other side's name beside its writer's, where it says more: to the client, the agency
 * (company name) a team member writes for; to the owner, the client as their list names them.
 * Null on the viewer's own side and where it would repeat the name (a solo owner without a
 * company name).
 */
export function sideOf(message: Message, viewerRole: "owner" | "client"): string | null {
  if (message.senderRole === viewerRole) return null;
  return authorOf(message) === message.senderName ? null : message.senderName;
}

/** The writer in one line, as announcements and the version history say it: "Sam Staff (Studio Olivia)". */
export function authorLabel(message: Message, viewerRole: "owner" | "client"): string {
  const side = sideOf(message, viewerRole);
  return side ? `${authorOf(message)} (${side})` : authorOf(message);
}

/**
 * Whether the viewer wrote `message` themselves, rather than someone else on their side (a
 * colleague): by name, which is what the viewer would tell them apart by anyway.
 */
export function isViewers(
  message: Message,
  viewerRole: "owner" | "client",
  viewerName: string | undefined,
): boolean {
  if (message.senderRole !== viewerRole) return false;
  return viewerName === undefined || message.authorName === undefined
    ? true
    : message.authorName === viewerName;
}
