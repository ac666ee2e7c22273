import type { Router } from "@koa/router";
import type { AppContext, AppContextExtras, AppState } from "../context";

/** One area's routes (one file under routes/): `new Router({ prefix })`, `use(...)`, `get/post/...`. */
export type AreaRouter = Router<AppState, AppContextExtras>;
/** What a route handler needs of its context: the app's, plus the path's named parameters. */
export type RouteContext = AppContext & { params: Record<string, string | undefined> };
