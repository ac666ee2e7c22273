import type { z } from "zod";
import { badRequest } from "./errors";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its canonical text form (an id from a query string, a socket, a NOTIFY). */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/** The value parsed with a shared zod schema; the first problem becomes a 400. */
export function parseOrThrow<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw badRequest("Invalid request");
  if (issue.code === "unrecognized_keys")
    throw badRequest(`Unknown field: ${issue.keys.join(", ")}`);
  throw badRequest(issueMessage(issue));
}

/**
 * A schema's own message as it is; zod's generic ones ("Invalid input: ...", "Too big: ...")
 * name the field, and a length limit says what the limit is.
 */
function issueMessage(issue: z.core.$ZodIssue): string {
  const field = issue.path.join(".");
  if (!field || !/^(Invalid|Too big|Too small)\b/.test(issue.message)) return issue.message;
  if (issue.code === "too_big" && issue.origin === "string")
    return `${field} must be at most ${issue.maximum} characters`;
  if (issue.code === "too_small" && issue.origin === "string")
    return Number(issue.minimum) <= 1
      ? `${field} is required`
      : `${field} must be at least ${issue.minimum} characters`;
  return `${field}: ${issue.message}`;
}
