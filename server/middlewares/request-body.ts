import type { Next } from "koa";
import { HttpMethodEnum, koaBody, type KoaBodyMiddlewareOptions } from "koa-body";
import type { AppContext } from "../context";
import { badRequest, payloadTooLarge } from "../errors";

/** JSON and form bodies; a body is never more than a short form. */
const BODY_LIMIT = 64 * 1024;
const WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** koa-body's read and parse failures, as the answers the API gives for them. */
function refuseBody(error: Error): never {
  if ((error as { type?: string }).type === "entity.too.large") throw payloadTooLarge();
  if (error instanceof SyntaxError) throw badRequest("Malformed JSON in request body");
  throw badRequest("Could not read the request body");
}

/** koa-body with the app's errors; `options` add to or override the defaults here. */
export function bodyParser(options: Partial<KoaBodyMiddlewareOptions> = {}) {
  return koaBody({
    jsonLimit: BODY_LIMIT,
    formLimit: BODY_LIMIT,
    // Uploads stream through busboy (uploads/multipart.ts), cut off at their size limit;
    // formidable would write the whole file to disk first.
    multipart: false,
    text: false,
    parsedMethods: [
      HttpMethodEnum.POST,
      HttpMethodEnum.PUT,
      HttpMethodEnum.PATCH,
      HttpMethodEnum.DELETE,
    ],
    onError: refuseBody,
    ...options,
  });
}

/**
 * JSON and urlencoded bodies on ctx.request.body, for every path but `rawPaths` (whose route
 * reads its body itself, e.g. a webhook whose signature covers the exact text). Requests
 * without a body skip koa-body's promise altogether.
 */
export function requestBody(rawPaths: string[]) {
  const parse = bodyParser();
  return (ctx: AppContext, next: Next) =>
    WITH_BODY.has(ctx.method) && !rawPaths.includes(ctx.path) ? parse(ctx, next) : next();
}
