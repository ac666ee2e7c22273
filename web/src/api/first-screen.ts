/**
 * The first data of a page in one request (shared/first-screen.ts: GET /api/portal/{id}, GET
 * /api/dashboard[?client={id}]). The server names it in the HTML page's Link header (preload),
 * so the browser fetches it alongside the scripts; a page's bootstrap module, imported first by
 * its entry, asks for it here when evaluated and gets the preloaded answer (or, without a
 * preload, starts it before React DOM and the pages are evaluated). On a phone every request is
 * a round trip of 150 ms or more: the ones the pages would otherwise make one after another
 * were most of the time to the first message (docs/benchmarks.md, "phone-load").
 */
import type { FirstScreen } from "../../../shared/first-screen";
import { apiUrl } from "./api-base";

/** What the request found: the data, nobody signed in, or nothing to seed (any other answer). */
export type FirstScreenOutcome<Data> =
  | { kind: "loaded"; data: Data }
  | { kind: "signed-out" }
  | { kind: "none" };

const NONE = { kind: "none" } as const;

/** Asks for `screen`'s data; resolves to "none" for no screen or on any failure. */
export function fetchFirstScreen<Data>(
  screen: FirstScreen | null,
): Promise<FirstScreenOutcome<Data>> {
  if (!screen) return Promise.resolve(NONE);
  // Asked exactly as the preload asks (credentials, no headers of our own): a request that
  // differs would not be given the preloaded answer, and the data would come twice.
  return fetch(apiUrl(screen.url), { credentials: "include" })
    .then(async (response): Promise<FirstScreenOutcome<Data>> => {
      if (response.ok) return { kind: "loaded", data: (await response.json()) as Data };
      // Another person's conversation (404), the wrong role (403), a failure: the pages ask
      // as they always did and show what they show for it.
      return response.status === 401 ? { kind: "signed-out" } : NONE;
    })
    .catch((): FirstScreenOutcome<Data> => NONE);
}
