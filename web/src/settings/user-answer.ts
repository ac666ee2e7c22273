import type { QueryClient } from "@tanstack/react-query";
import { setCurrentUser, type User } from "../api/current-user";
import { queryKeys } from "../api/query-keys";

/** Settings answers carry the updated user; without one, the user is fetched again. */
export function applyUserAnswer(queryClient: QueryClient, answer: { user?: User } | null): void {
  if (answer?.user) setCurrentUser(queryClient, answer.user);
  else void queryClient.invalidateQueries({ queryKey: queryKeys.user });
}
