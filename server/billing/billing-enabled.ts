import type { Next } from "koa";
import type { AppContext } from "../context";
import { notFound } from "../errors";
import { BILLING_OFF_MESSAGE } from "./provider";

/** With BILLING_MODE=off there are no plans to read or change: 404 with a clear message. */
export async function billingEnabled(ctx: AppContext, next: Next) {
  if (ctx.services.config.billingMode === "off") throw notFound(BILLING_OFF_MESSAGE);
  return next();
}
