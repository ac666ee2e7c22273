import type { z } from "zod";
import { msg } from "../shared/i18n/msg";
import { badRequest } from "./errors";
import type { MessageValues } from "./i18n/translator";

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
    throw badRequest("Unknown field: {{fields}}", { fields: issue.keys.join(", ") });
  const { message, values } = issueMessage(issue);
  throw badRequest(message, values);
}

/**
 * A schema's own message as it is (an English text marked with msg(), translated when the
 * answer is written); zod's generic ones ("Invalid input: ...", "Too big: ...") name the
 * field, and a length limit says what the limit is. The field is the API's own name for it
 * ("fullName"), and the rest of zod's generic text stays zod's English.
 */
function issueMessage(issue: z.core.$ZodIssue): { message: string; values?: MessageValues } {
  const field = issue.path.join(".");
  if (!field || !/^(Invalid|Too big|Too small)\b/.test(issue.message))
    return { message: issue.message };
  if (issue.code === "too_big" && issue.origin === "string")
    return {
      message: msg("{{field}} must be at most {{max}} characters"),
      values: { field, max: Number(issue.maximum) },
    };
  if (issue.code === "too_small" && issue.origin === "string")
    return Number(issue.minimum) <= 1
      ? { message: msg("{{field}} is required"), values: { field } }
      : {
          message: msg("{{field}} must be at least {{min}} characters"),
          values: { field, min: Number(issue.minimum) },
        };
  return { message: msg("{{field}}: {{problem}}"), values: { field, problem: issue.message } };
}
