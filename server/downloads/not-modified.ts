import fresh from "fresh";

/**
 * Whether the caller already has this version: If-None-Match against the ETag (weak
 * comparison, lists and `*`, by fresh). Only that validator is handed over, as before:
 * fresh (and so ctx.fresh) reads a request's `Cache-Control: no-cache` as "send it again",
 * but fetch() adds that to every request carrying If-None-Match, and an origin server
 * evaluates the condition anyway (RFC 9110 13.2).
 */
export function isNotModified(request: { get(field: string): string }, etag: string): boolean {
  return fresh({ "if-none-match": request.get("If-None-Match") }, { etag });
}
