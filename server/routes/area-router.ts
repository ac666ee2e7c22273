import type { Router } from "@koa/router";
import type { z } from "zod";
import type { AppContext, AppContextExtras, AppState } from "../context";
import { parseOrThrow } from "../validate";

/** One area's routes (one file under routes/): `new Router({ prefix })`, `use(...)`, `get/post/...`. */
export type AreaRouter = Router<AppState, AppContextExtras>;
/** What a route handler needs of its context: the app's, plus the path's named parameters. */
export type RouteContext = AppContext & { params: Record<string, string | undefined> };

/**
 * A route's last handler, given the body parsed with a shared zod schema and typed from it
 * (no body: `{}`); the first problem becomes a 400 before the handler runs.
 */
export function withInput<Schema extends z.ZodType>(
  schema: Schema,
  handler: (ctx: RouteContext, input: z.infer<Schema>) => unknown,
) {
  return async (ctx: RouteContext) => handler(ctx, parseOrThrow(schema, ctx.request.body ?? {}));
}
