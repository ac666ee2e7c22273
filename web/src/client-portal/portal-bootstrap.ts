/**
 * The client portal's first screen in one request (GET /api/portal/{clientId}; see
 * web/src/api/first-screen.ts): started when this module is evaluated (main.tsx imports it
 * first), then put in the cache the pages read.
 */
import type { QueryClient } from "@tanstack/react-query";
import { firstScreenOf } from "../../../shared/first-screen";
import type { PortalBootstrap } from "../../../shared/schemas/portal";
import { type FirstScreenOutcome, fetchFirstScreen } from "../api/first-screen";
import { queryKeys } from "../api/query-keys";
import { seedConversation } from "../conversation/first-page";

export type BootstrapOutcome = FirstScreenOutcome<PortalBootstrap>;

const opened = firstScreenOf(window.location.pathname, window.location.search);
// Only a conversation's address: invite links and short codes sign in first.
const screen = opened?.page === "portal" ? opened : null;

/** Started once, when the module is first evaluated (before React renders). */
export const portalBootstrap: Promise<BootstrapOutcome> = fetchFirstScreen(screen);

/**
 * Puts the answer under the keys the pages read (web/src/api/query-keys.ts), so that they
 * render from the cache without asking again: the user, the conversation, and its newest
 * page of messages.
 */
export function seedPortalCache(queryClient: QueryClient, outcome: BootstrapOutcome): void {
  if (outcome.kind === "signed-out") {
    queryClient.setQueryData(queryKeys.user, null);
    return;
  }
  if (outcome.kind !== "loaded" || !screen) return;
  const { data } = outcome;
  queryClient.setQueryData(queryKeys.user, data.user);
  seedConversation(queryClient, screen.clientId, data);
}
