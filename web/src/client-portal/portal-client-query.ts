import { useQuery } from "@tanstack/react-query";
import type { ClientPayload } from "../../../shared/schemas/clients";
import { apiGet } from "../api/client";
import { queryKeys } from "../api/query-keys";

/** GET /api/clients/{clientId}: the conversation, with what the client sees of its owner. */
export type PortalClient = ClientPayload;

export function usePortalClient(clientId: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.client(clientId ?? ""),
    queryFn: () => apiGet<PortalClient>(`/api/clients/${encodeURIComponent(clientId ?? "")}`),
    enabled: enabled && Boolean(clientId),
  });
}
