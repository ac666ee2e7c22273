import { Router } from "@koa/router";
import type Koa from "koa";
import type { AreaRouter } from "./area-router";

/**
 * Mounts each area's routes in order, then one allowedMethods(): every area records the routes
 * whose path matched on ctx.matched, so a path known only for other methods answers 405 with
 * Allow (OPTIONS: Allow), whichever area it is in. Each area is mounted on its own (not nested
 * in one router) so that an area's use() middleware runs for its own routes only. A route that
 * an earlier one answers first is a start-up error (see refuseUnreachableRoutes).
 */
export function mountRoutes(app: Pick<Koa, "use">, areas: AreaRouter[]): void {
  refuseUnreachableRoutes(areas);
  for (const area of areas) app.use(area.routes() as Koa.Middleware);
  app.use(new Router().allowedMethods() as Koa.Middleware);
}

/**
 * The name of a route that answers only some of the ids its path matches and hands the others
 * to the next area with `return next()` (scheduled-messages.ts: PATCH /api/messages/:id for a
 * scheduled message, the sent message's route otherwise). A later route of the same path is
 * then reached, so it is not refused below.
 */
export const FALLS_THROUGH = "falls-through";

/**
 * The first route whose path matches answers, so a route after one of the same method whose
 * pattern takes its path never runs: a duplicate, or a fixed word registered after a parameter
 * in its place (`/:id` before `/latest`). Both stop the server at start-up, and so does an
 * area's use() after its routes.
 */
export function refuseUnreachableRoutes(areas: AreaRouter[]): void {
  for (const area of areas) {
    // An area's use() middleware runs in the order it was added: after a route, it would run
    // only once that route's handler had answered.
    const firstRoute = area.stack.findIndex((layer) => layer.methods.length > 0);
    const lateUse = area.stack
      .slice(firstRoute + 1)
      .find((layer) => firstRoute >= 0 && layer.methods.length === 0);
    if (lateUse)
      throw new Error(`router.use() must come before the routes (${String(lateUse.path)})`);
  }
  const routes = areas.flatMap((area) => area.stack.filter((layer) => layer.methods.length > 0));
  routes.forEach((route, index) => {
    const path = String(route.path);
    const earlier = routes
      .slice(0, index)
      .find(
        (other) =>
          other.name !== FALLS_THROUGH &&
          other.match(path) &&
          other.methods.some((method) => route.methods.includes(method)),
      );
    if (earlier)
      throw new Error(
        `${route.methods.join(", ")} ${path} is never reached: ${String(earlier.path)} answers it first`,
      );
  });
}
