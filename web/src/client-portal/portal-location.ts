import { useMemo, useSyncExternalStore } from "react";

/**
 * The portal's few routes need no router library: this hook reads the address, and
 * navigate() changes it without a reload (history API). Keeping react-router out of the
 * portal keeps it out of what a client's phone downloads (about 13 KB gzip).
 */
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("popstate", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("popstate", listener);
  };
}

const currentHref = () => window.location.pathname + window.location.search;

export function navigate(to: string, { replace = false }: { replace?: boolean } = {}) {
  if (replace) window.history.replaceState(null, "", to);
  else window.history.pushState(null, "", to);
  for (const listener of listeners) listener();
}

export interface PortalRoute {
  page: "sign-in" | "signed-out" | "feedback" | "client" | "invite" | "other";
  clientId?: string;
  token?: string;
  searchParams: URLSearchParams;
}

/** Which portal page the address names, with its parameter (decoded) and query. */
export function matchPortalRoute(pathname: string, search: string): PortalRoute {
  const searchParams = new URLSearchParams(search);
  const path = pathname.replace(/\/+$/, "");
  const param = (prefix: string) => {
    if (!path.startsWith(prefix)) return undefined;
    const rest = path.slice(prefix.length);
    if (!rest || rest.includes("/")) return undefined;
    try {
      return decodeURIComponent(rest);
    } catch {
      return undefined;
    }
  };
  if (path === "/client/sign-in") return { page: "sign-in", searchParams };
  if (path === "/client/signed-out") return { page: "signed-out", searchParams };
  const feedbackToken = param("/client/feedback/");
  if (feedbackToken) return { page: "feedback", token: feedbackToken, searchParams };
  const clientId = param("/client/");
  if (clientId) return { page: "client", clientId, searchParams };
  const token = param("/invite/");
  if (token) return { page: "invite", token, searchParams };
  return { page: "other", searchParams };
}

export function usePortalRoute(): PortalRoute {
  const href = useSyncExternalStore(subscribe, currentHref);
  return useMemo(() => {
    const url = new URL(href, window.location.origin);
    return matchPortalRoute(url.pathname, url.search);
  }, [href]);
}
