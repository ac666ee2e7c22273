/**
 * The client portal's first screen in one request (GET /api/portal/{clientId}). The server
 * names it in the page's Link header (preload), so the browser fetches it alongside the
 * scripts; this module, which main.tsx imports first, asks for it when evaluated and gets
 * the preloaded answer (or, without a preload, starts it before React DOM and the pages
 * are evaluated). On a phone
 * every request is a round trip of 150 ms or more; the three the pages would otherwise make
 * one after another (/api/user, then the conversation and its messages) were most of the
 * time to the first message (docs/benchmarks.md, "Phone load").
 */
import type { QueryClient } from "@tanstack/react-query";
import type { PortalBootstrap } from "../../../shared/schemas/portal";
import { apiUrl } from "../api/client";
import { queryKeys } from "../api/query-keys";
import type { MessagePages } from "../conversation/message-pages";
import { matchPortalRoute } from "./portal-location";

/** What the request found: the data, nobody signed in, or nothing to seed (any other answer). */
export type BootstrapOutcome =
  | { kind: "loaded"; clientId: string; data: PortalBootstrap }
  | { kind: "signed-out" }
  | { kind: "none" };

function start(): Promise<BootstrapOutcome> {
  const route = matchPortalRoute(window.location.pathname, window.location.search);
  const { clientId } = route;
  // Only a conversation's address: invite links and short codes sign in first.
  if (route.page !== "client" || !clientId) return Promise.resolve({ kind: "none" });
  // Asked exactly as the preload asks (credentials, no headers of our own): a request that
  // differs would not be given the preloaded answer, and the data would come twice.
  return fetch(apiUrl(`/api/portal/${encodeURIComponent(clientId)}`), { credentials: "include" })
    .then(async (response): Promise<BootstrapOutcome> => {
      if (response.ok) return { kind: "loaded", clientId, data: await response.json() };
      // Another client's id (404), an owner (403), a failure: the pages ask as they always
      // did and show what they show for it.
      return response.status === 401 ? { kind: "signed-out" } : { kind: "none" };
    })
    .catch((): BootstrapOutcome => ({ kind: "none" }));
}

/** Started once, when the module is first evaluated (before React renders). */
export const portalBootstrap: Promise<BootstrapOutcome> = start();

/**
 * Puts the answer under the keys the pages read (web/src/api/query-keys.ts), so that they
 * render from the cache without asking again: the user, the conversation, and its newest
 * page of messages as the first page of the messages infinite query.
 */
export function seedPortalCache(queryClient: QueryClient, outcome: BootstrapOutcome): void {
  if (outcome.kind === "signed-out") {
    queryClient.setQueryData(queryKeys.user, null);
    return;
  }
  if (outcome.kind !== "loaded") return;
  const { clientId, data } = outcome;
  queryClient.setQueryData(queryKeys.user, data.user);
  queryClient.setQueryData(queryKeys.client(clientId), data.client);
  queryClient.setQueryData<MessagePages>(queryKeys.messages(clientId), {
    pages: [data.messages],
    pageParams: [undefined],
  });
}
