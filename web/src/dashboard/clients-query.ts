import { useQuery } from "@tanstack/react-query";
import type { ClientPayload } from "../../../shared/schemas/clients";
import { apiGet } from "../api/client";
import { queryKeys } from "../api/query-keys";

export type OwnerClient = ClientPayload;

/** When the conversation last moved: its last message, else when the client was added. */
export function lastActivity(client: OwnerClient): string {
  return client.lastMessageAt ?? client.createdAt;
}

/** Newest activity first (the server sends them so; kept after any change made here). */
function newestActivityFirst(clients: OwnerClient[]): OwnerClient[] {
  return [...clients].sort((a, b) => Date.parse(lastActivity(b)) - Date.parse(lastActivity(a)));
}

/** Unread messages across all the owner's conversations (the tab title shows them). */
export function totalUnread(clients: OwnerClient[]): number {
  return clients.reduce((sum, client) => sum + client.unreadCount, 0);
}

/** GET /api/clients: the owner's clients with unread counts and whether they await a reply. */
export function useClients() {
  return useQuery({
    queryKey: queryKeys.clients,
    queryFn: () => apiGet<OwnerClient[]>("/api/clients"),
    select: newestActivityFirst,
  });
}
