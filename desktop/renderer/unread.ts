import { i18n } from "../../web/src/i18n/i18n";

/**
 * What the desktop app derives from the owner's client list (GET /api/clients, refetched on
 * every realtime event): the unread total for the tray and badge, and which conversations
 * got new messages since the last look, for notifications.
 */
export interface ClientUnread {
  id: string;
  name: string;
  unreadCount: number;
}

export function unreadTotal(clients: readonly ClientUnread[]): number {
  return clients.reduce((sum, client) => sum + Math.max(0, client.unreadCount), 0);
}

/** Conversations whose unread count went up; none on the first list (nothing was "new"). */
export function newlyUnread(
  previous: ReadonlyMap<string, number> | null,
  clients: readonly ClientUnread[],
): ClientUnread[] {
  if (!previous) return [];
  return clients.filter((client) => client.unreadCount > (previous.get(client.id) ?? 0));
}

export function unreadSnapshot(clients: readonly ClientUnread[]): Map<string, number> {
  return new Map(clients.map((client) => [client.id, client.unreadCount]));
}

/** "New message" for one, "3 unread messages" for more (the English catalog's _one is the former). */
export function notificationBody(unreadCount: number): string {
  return i18n.t("{{count}} unread messages", { ns: "common", count: unreadCount });
}

/** The dashboard's address of one conversation (web/src/dashboard/client-list.tsx). */
export function conversationPath(clientId: string): string {
  return `/?client=${encodeURIComponent(clientId)}`;
}
