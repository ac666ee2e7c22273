import getRawBody from "raw-body";
import type { AppContext } from "../context";
import { badRequest, payloadTooLarge } from "../errors";

const WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Parses JSON bodies up to `limit` bytes; other content types leave the body empty.
 * `rawPaths` are left unread for their handler (a webhook's signature covers the raw bytes).
 * Returns a promise only when there is a body to read, so reads pay for no await.
 */
export function jsonBody(limit = 64 * 1024, rawPaths: string[] = []): (ctx: AppContext) => Promise<void> | undefined {
  const read = async (ctx: AppContext) => {
    let body: unknown = {};
    if (ctx.is("application/json")) {
      let text: string;
      try {
        text = await getRawBody(ctx.req, { limit, encoding: "utf8", length: ctx.get("Content-Length") || undefined });
      } catch (error) {
        if ((error as { type?: string }).type === "entity.too.large") throw payloadTooLarge();
        throw badRequest("Could not read the request body");
      }
      if (text.trim() !== "") {
        try {
          body = JSON.parse(text);
        } catch {
          throw badRequest("Malformed JSON in request body");
        }
      }
    }
    (ctx.request as { body?: unknown }).body = body;
  };
  return (ctx) => {
    if (!WITH_BODY.has(ctx.method) || ctx.is("multipart/form-data") || rawPaths.includes(ctx.path)) return;
    return read(ctx);
  };
}
