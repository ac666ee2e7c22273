import { type QueryClient, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Language } from "../../../shared/i18n/languages";
import type {
  ClientLanguageResponse,
  UserLanguageResponse,
  WorkspaceLanguageResponse,
} from "../../../shared/schemas/language";
import type { User } from "../../../shared/schemas/user";
import { apiGet, apiPatch } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { adoptServerLanguage } from "./i18n";

/**
 * PATCH /api/user/language: the signed-in person's pick (staff in settings, a contact in the
 * portal). The page switches to it at once, without a reload.
 */
export function useSaveMyLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: Language) =>
      apiPatch<UserLanguageResponse>("/api/user/language", { language }),
    onSuccess: async ({ language }) => {
      await adoptServerLanguage(language);
      queryClient.setQueryData<User | null>(queryKeys.user, (user) =>
        user ? { ...user, language, languageChosen: true } : user,
      );
    },
  });
}

/** GET /api/workspace/language: what new clients are invited in (any of the staff). */
export function useWorkspaceLanguage(enabled = true) {
  return useQuery({
    queryKey: queryKeys.workspaceLanguage,
    queryFn: () => apiGet<WorkspaceLanguageResponse>("/api/workspace/language"),
    enabled,
    select: (answer) => answer.language,
  });
}

/** PATCH /api/workspace/language: the workspace's owner and admins. */
export function useSaveWorkspaceLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: Language) =>
      apiPatch<WorkspaceLanguageResponse>("/api/workspace/language", { language }),
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.workspaceLanguage, answer),
  });
}

/** PATCH /api/clients/{id}/language: a client's invite language (null: the workspace's). */
export function useSaveClientLanguage(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (language: Language | null) =>
      apiPatch<ClientLanguageResponse>(`/api/clients/${encodeURIComponent(clientId)}/language`, {
        language,
      }),
    onSuccess: ({ language }) => updateListedClient(queryClient, clientId, language),
  });
}

function updateListedClient(queryClient: QueryClient, clientId: string, language: Language | null) {
  queryClient.setQueryData<{ id: string; language: Language | null }[]>(
    queryKeys.clients,
    (clients) =>
      clients?.map((client) => (client.id === clientId ? { ...client, language } : client)),
  );
  void queryClient.invalidateQueries({ queryKey: queryKeys.client(clientId), exact: true });
}
