import { type QueryClient, useQuery } from "@tanstack/react-query";
import type { User } from "../../../shared/schemas/user";
import { ApiError, apiGet, apiPost } from "./client";
import { queryKeys } from "./query-keys";

export type { User };

/** The user is cached for 5 minutes (spec section 4); everything else never goes stale. */
const USER_CACHE_MS = 5 * 60 * 1000;

/** GET /api/user; a 401 means nobody is signed in (null), not an error. */
export async function fetchCurrentUser(): Promise<User | null> {
  try {
    return await apiGet<User>("/api/user");
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export function useCurrentUser() {
  return useQuery({
    queryKey: queryKeys.user,
    queryFn: fetchCurrentUser,
    staleTime: USER_CACHE_MS,
  });
}

export function setCurrentUser(queryClient: QueryClient, user: User | null): void {
  queryClient.setQueryData(queryKeys.user, user);
}

/** Signs out on the server, then forgets everything cached about the user. */
export async function logout(queryClient: QueryClient): Promise<void> {
  await apiPost("/api/logout");
  forgetSignedInUser(queryClient);
}

/**
 * After sign-out or account deletion: forgets everything cached about the user, and drops this
 * browser's push subscription (the server dropped it with the session), so whoever signs in
 * here next starts with notifications off.
 */
export function forgetSignedInUser(queryClient: QueryClient): void {
  void navigator.serviceWorker
    ?.getRegistration()
    .then((registration) => registration?.pushManager?.getSubscription())
    .then((subscription) => subscription?.unsubscribe())
    .catch(() => undefined);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.user[0] });
  setCurrentUser(queryClient, null);
}
