import type { Next } from "koa";
import type { z } from "zod";
import type { AppContext } from "../context";
import { badRequest } from "../errors";

/** Parses the JSON body with a shared zod schema; the first problem becomes a 400. */
export function validate<Schema extends z.ZodType>(schema: Schema) {
  return async (ctx: AppContext, next: Next) => {
    const body = (ctx.request as { body?: unknown }).body ?? {};
    ctx.state.input = parseOrThrow(schema, body);
    return next();
  };
}

export function parseOrThrow<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw badRequest("Invalid request");
  if (issue.code === "unrecognized_keys") throw badRequest(`Unknown field: ${issue.keys.join(", ")}`);
  const field = issue.path.join(".");
  const generic = issue.message.startsWith("Invalid input");
  throw badRequest(generic && field ? `${field}: ${issue.message}` : issue.message);
}

/** The input that validate() put on the context. */
export function input<T>(ctx: AppContext): T {
  return ctx.state.input as T;
}
