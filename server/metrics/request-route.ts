const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The labels a request is counted under: the route's pattern as the router matched it
 * (/api/clients/:clientId/messages), never the raw path, and a fixed set of methods, so
 * the number of series stays bounded whatever callers send.
 */
export function requestLabels(ctx: { method: string; path: string }): {
  method: string;
  route: string;
} {
  const method = KNOWN_METHODS.has(ctx.method) ? ctx.method : "other";
  const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
  if (typeof matched === "string") return { method, route: matched };
  // No API route: an unknown /api path (404/405), or the web app's pages and assets.
  return { method, route: ctx.path.startsWith("/api/") ? "unmatched" : "web" };
}
