import { QueryClient } from "@tanstack/react-query";
import { followUserLanguage } from "../i18n/follow-user-language";

/**
 * Spec section 4: data never goes stale on its own, nothing refetches on focus or polls,
 * and nothing is retried. Changes arrive through mutations (and later the websocket).
 */
export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: Number.POSITIVE_INFINITY,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      // An owner's click should fail at once offline, not fire minutes later (react-query's
      // default pauses mutations while offline). Only messages wait: message-queue.ts.
      mutations: { retry: false, networkMode: "always" },
    },
  });
  // The page reads in the language the server names with the user (issue 29).
  followUserLanguage(client);
  return client;
}
