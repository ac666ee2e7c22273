import { z } from "zod";
import {
  API_ERROR_RESPONSE,
  API_RESPONSES,
  type ApiRoute,
  FILE_ANSWER,
} from "../../shared/api/responses";

/** The table's path patterns as regular expressions; static paths are tried first. */
const PATTERNS = (Object.keys(API_RESPONSES) as ApiRoute[])
  .map((key) => {
    const [method = "", path = ""] = key.split(" ");
    const segments = path
      .split("/")
      .map((part) => (part.startsWith(":") ? "[^/]+" : literalPattern(part)));
    return {
      key,
      method,
      pattern: new RegExp(`^${segments.join("/")}$`),
      params: path.split(":").length,
    };
  })
  .sort((a, b) => a.params - b.params);

function literalPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The table's route for a request (HEAD is GET without a body; a trailing slash is ignored). */
export function apiRouteOf(method: string, path: string): ApiRoute | undefined {
  const wanted = method === "HEAD" ? "GET" : method;
  const bare = path.length > 1 ? path.replace(/\/$/, "") : path;
  return PATTERNS.find((route) => route.method === wanted && route.pattern.test(bare))?.key;
}

export interface ReceivedAnswer {
  method: string;
  url: string;
  status: number;
  contentType: string;
  text: string;
  body: unknown;
}

/**
 * Throws, naming the route and zod's issues, when an /api/ answer breaks its shared schema:
 * a success answer against API_RESPONSES (a route missing there fails too), an error answer
 * against the error schema. Answers without a body (HEAD, 204, 304) have nothing to check.
 */
export function checkApiAnswer(answer: ReceivedAnswer): void {
  const path = new URL(answer.url).pathname;
  if (!path.startsWith("/api/") || answer.text === "") return;
  const request = `${answer.method} ${path} answered ${answer.status}`;
  const json = answer.contentType.includes("application/json");
  if (answer.status >= 400) {
    if (!json)
      throw new Error(`${request} with ${answer.contentType || "no type"}, not a JSON error`);
    parse(API_ERROR_RESPONSE, answer.body, `${request}: the error does not match the error schema`);
    return;
  }
  const route = apiRouteOf(answer.method, path);
  if (!route)
    throw new Error(`${request}, and no entry of shared/api/responses.ts names that route`);
  const schema = API_RESPONSES[route];
  if (schema === FILE_ANSWER) return;
  if (!json)
    throw new Error(`${request} with ${answer.contentType || "no type"}; ${route} answers JSON`);
  parse(schema, answer.body, `${request}: the answer does not match the schema of ${route}`);
}

function parse(schema: z.ZodType, body: unknown, problem: string): void {
  const result = schema.safeParse(body);
  if (!result.success) throw new Error(`${problem}\n${z.prettifyError(result.error)}`);
}
