import type { Next } from "koa";
import { loadSession } from "../auth/sessions";
import type { AppContext } from "../context";

export async function session(ctx: AppContext, next: Next) {
  await loadSession(ctx);
  return next();
}
