import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { MessagePayload } from "../../../shared/schemas/messages";
import type { ScheduledMessage } from "../../../shared/schemas/scheduled-messages";
import { apiDelete, apiGet, apiPatch, apiPost, apiRequest } from "../api/client";
import { newIdempotencyKey } from "../api/idempotent-post";
import { queryKeys } from "../api/query-keys";

export type { ScheduledMessage };

const encoded = encodeURIComponent;

/**
 * GET /api/clients/{id}/scheduled: the viewer's side's scheduled messages, soonest first.
 * `enabled` once the conversation has shown its messages: the first screen stays one request.
 */
export function useScheduledMessages(clientId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.scheduled(clientId),
    enabled,
    queryFn: () => apiGet<ScheduledMessage[]>(`/api/clients/${encoded(clientId)}/scheduled`),
  });
}

/** POST /api/clients/{id}/messages with sendAt (an Idempotency-Key, as every message POST). */
export function scheduleMessage(
  clientId: string,
  input: { content: string; sendAt: string; visibility?: "internal" },
): Promise<ScheduledMessage> {
  return apiRequest<ScheduledMessage>("POST", `/api/clients/${encoded(clientId)}/messages`, input, {
    "Idempotency-Key": newIdempotencyKey(),
  });
}

/** The list's changes: edit, send now, cancel; each refreshes the list (and the conversation). */
export function useScheduledActions(clientId: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    void queryClient.invalidateQueries({ queryKey: queryKeys.scheduled(clientId) });
  const edit = useMutation({
    mutationFn: ({ id, ...input }: { id: string; content: string; sendAt: string }) =>
      apiPatch<ScheduledMessage>(`/api/messages/${encoded(id)}`, input),
    onSettled: refresh,
  });
  const sendNow = useMutation({
    mutationFn: (id: string) => apiPost<MessagePayload>(`/api/messages/${encoded(id)}/send-now`),
    onSettled: () => {
      refresh();
      void queryClient.invalidateQueries({ queryKey: queryKeys.messages(clientId) });
    },
  });
  const cancel = useMutation({
    mutationFn: (id: string) => apiDelete(`/api/messages/${encoded(id)}`),
    onSettled: refresh,
  });
  return { edit, sendNow, cancel, refresh };
}
