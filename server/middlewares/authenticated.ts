import type { Next } from "koa";
import type { AppContext } from "../context";
import { unauthorized } from "../errors";
import type { User } from "../models";

/** Requires a signed-in user; 401 otherwise. */
export async function authenticated(ctx: AppContext, next: Next) {
  if (!ctx.state.user) throw unauthorized();
  return next();
}

export function currentUser(ctx: AppContext): User {
  const user = ctx.state.user;
  if (!user) throw unauthorized();
  return user;
}
