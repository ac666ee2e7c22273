import Router from "@koa/router";
import type { AppState, Services } from "../context";

/** A router typed with our state and services. */
export function createRouter(prefix?: string) {
  return new Router<AppState, { services: Services }>({ prefix });
}
export type AppRouter = ReturnType<typeof createRouter>;
