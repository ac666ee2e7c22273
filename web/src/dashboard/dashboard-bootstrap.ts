/**
 * The owner's first screen in one request (GET /api/dashboard[?client={id}]; see
 * web/src/api/first-screen.ts): started when this module is evaluated (web/src/app/main.tsx
 * imports it first), then put in the cache the pages read, so that the client list, the plan
 * box, the banners and the open conversation render without asking again. Web only: the
 * desktop app has no preload (its pages come from disk) and asks as before.
 */
import type { QueryClient } from "@tanstack/react-query";
import { firstScreenOf } from "../../../shared/first-screen";
import type { DashboardBootstrap } from "../../../shared/schemas/dashboard";
import { type FirstScreenOutcome, fetchFirstScreen } from "../api/first-screen";
import { queryKeys } from "../api/query-keys";
import { seedConversation } from "../conversation/first-page";

export type DashboardOutcome = FirstScreenOutcome<DashboardBootstrap>;

const opened = firstScreenOf(window.location.pathname, window.location.search);
// Only the dashboard's address (/, /?client=...): /auth, /pricing and the rest ask as before.
const screen = opened?.page === "dashboard" ? opened : null;

/** Started once, when the module is first evaluated (before React renders). */
export const dashboardBootstrap: Promise<DashboardOutcome> = fetchFirstScreen(screen);

/** Puts the answer under the keys the pages read (web/src/api/query-keys.ts). */
export function seedDashboardCache(queryClient: QueryClient, outcome: DashboardOutcome): void {
  if (outcome.kind === "signed-out") {
    queryClient.setQueryData(queryKeys.user, null);
    return;
  }
  if (outcome.kind !== "loaded") return;
  const { data } = outcome;
  queryClient.setQueryData(queryKeys.user, data.user);
  queryClient.setQueryData(queryKeys.clients, data.clients);
  // As useBillingMode keeps it: the mode itself.
  queryClient.setQueryData(queryKeys.billingMode, data.billingMode.mode);
  queryClient.setQueryData(queryKeys.accountTier, data.accountTier);
  queryClient.setQueryData(queryKeys.subscriptionStatus, data.subscriptionStatus);
  queryClient.setQueryData(queryKeys.teamMembers, data.team);
  if (data.conversation && screen?.clientId)
    seedConversation(queryClient, screen.clientId, data.conversation);
}
