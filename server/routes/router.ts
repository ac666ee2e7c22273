import FindMyWay, { type HTTPMethod } from "find-my-way";
import type { Next } from "koa";
import compose from "koa-compose";
import type { AppContext } from "../context";

/** A route handler's context: the app's, plus the path's named parameters. */
export type RouteContext = AppContext & { params: Record<string, string | undefined> };
export type RouteMiddleware = (ctx: RouteContext, next: Next) => unknown;

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const METHODS: readonly Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

interface Route {
  method: Method;
  path: string;
  stack: RouteMiddleware[];
}

/**
 * The routes of one area (one file under routes/), under an optional path prefix, with
 * middleware that every route of the area runs first (use). Areas are mounted together by
 * mountRoutes(), which answers each request with one lookup in one table.
 */
export class AreaRouter {
  readonly routes: Route[] = [];
  private readonly shared: RouteMiddleware[] = [];

  constructor(private readonly prefix = "") {}

  /** Middleware for every route of this area; call it before adding routes. */
  use(...middleware: RouteMiddleware[]): this {
    if (this.routes.length > 0) throw new Error("AreaRouter.use() must come before the routes");
    this.shared.push(...middleware);
    return this;
  }

  get = this.adder("GET");
  post = this.adder("POST");
  put = this.adder("PUT");
  patch = this.adder("PATCH");
  delete = this.adder("DELETE");

  private adder(method: Method) {
    return (path: string, ...middleware: RouteMiddleware[]): this => {
      const full = path === "/" && this.prefix ? this.prefix : `${this.prefix}${path}`;
      this.routes.push({ method, path: full, stack: [...this.shared, ...middleware] });
      return this;
    };
  }
}

export function createRouter(prefix?: string): AreaRouter {
  return new AreaRouter(prefix);
}

/**
 * One middleware answering every route of `areas`: a radix-tree lookup (find-my-way) and a
 * chain composed once at start-up, rather than a regex walk and a composition per router and
 * per request. A static path wins over a parametric one; two routes of the same method and
 * path are an error at start-up. A path that exists only for other methods answers 405 with
 * Allow (OPTIONS: 204 with Allow); anything else goes on to the next middleware.
 */
export function mountRoutes(areas: AreaRouter[]) {
  const table = FindMyWay({
    ignoreTrailingSlash: true,
    // Ids, tokens and file names are checked by their handlers, whatever their length.
    maxParamLength: 2048,
  });
  for (const area of areas) {
    for (const route of area.routes) {
      const chain = compose(route.stack as compose.Middleware<AppContext>[]);
      // HEAD is GET without the body (Koa leaves the body out).
      const methods: HTTPMethod[] = route.method === "GET" ? ["GET", "HEAD"] : [route.method];
      table.on(methods, route.path, () => undefined, { chain });
    }
  }

  const lookup = (method: string, path: string) => {
    try {
      return table.find(method as HTTPMethod, path);
    } catch {
      return null; // a malformed percent-encoding: no route has it
    }
  };

  return function routes(ctx: AppContext, next: Next) {
    const found = lookup(ctx.method, ctx.path);
    if (found) {
      (ctx as RouteContext).params = found.params;
      return (found.store as { chain: compose.ComposedMiddleware<AppContext> }).chain(ctx, next);
    }
    const allowed = METHODS.filter((method) => lookup(method, ctx.path));
    if (allowed.length === 0) return next();
    ctx.set("Allow", allowed.flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m])).join(", "));
    if (ctx.method === "OPTIONS") {
      ctx.status = 204;
      return;
    }
    ctx.status = 405;
    ctx.body = { message: `${ctx.method} is not allowed here` };
  };
}
