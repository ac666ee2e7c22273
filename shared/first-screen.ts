/**
 * The first data a page of the web app takes in one request, by the page's address: a
 * conversation's portal page (/client/{id}) GET /api/portal/{id}; the owner's dashboard (/,
 * /?client={id}) GET /api/dashboard, with ?client= when the address names a client. The
 * server names it in the HTML page's Link preload (server/middlewares/web-app.ts) and the
 * page's bootstrap module asks for exactly the same URL (web/src/api/first-screen.ts), which
 * is what lets the browser hand the preloaded answer to it.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PORTAL_CONVERSATION = /^\/client\/([^/]+)\/?$/;

export type FirstScreen =
  | { page: "portal"; clientId: string; url: string }
  | { page: "dashboard"; clientId: string | null; url: string };

/** `pathname` and `search` (with or without its "?") as the browser has them; null for other pages. */
export function firstScreenOf(pathname: string, search: string): FirstScreen | null {
  const portalId = PORTAL_CONVERSATION.exec(pathname)?.[1];
  if (portalId !== undefined) {
    return UUID.test(portalId)
      ? { page: "portal", clientId: portalId, url: `/api/portal/${portalId}` }
      : null;
  }
  if (pathname !== "/") return null;
  const named = new URLSearchParams(search).get("client");
  const clientId = named !== null && UUID.test(named) ? named : null;
  return {
    page: "dashboard",
    clientId,
    url: clientId ? `/api/dashboard?client=${clientId}` : "/api/dashboard",
  };
}

/** The Link header that names it: fetched with the session cookie, as the page's fetch is. */
export function firstScreenPreload(screen: FirstScreen): string {
  return `<${screen.url}>; rel=preload; as=fetch; crossorigin=use-credentials`;
}
