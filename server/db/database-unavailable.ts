import { msg } from "../../shared/i18n/msg";

/** What a 503 for an unavailable database says (HTTP and the websocket upgrade alike). */
export const UNAVAILABLE_MESSAGE = msg(
  "The service is briefly unavailable. Please try again in a moment.",
);
/** About the database timeouts (timeouts.ts): by then the outcome is known either way. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * Whether an error means the database cannot be reached or did not answer in time (down,
 * frozen, restarting, out of connections), as opposed to a fault of this request. Such errors
 * answer 503 with Retry-After (middlewares/errors.ts): the request may simply be tried again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    if (matches(current as ErrorLike)) return true;
    current = (current as ErrorLike).cause;
  }
  return false;
}

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** Network failures on the way to the server (Node's system error codes). */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

/**
 * PostgreSQL SQLSTATEs: 57014 statement timeout (query_canceled), 57P01-57P03 shutting down or
 * starting, 53300 too many connections, 08xxx connection exceptions.
 */
const SQLSTATES = /^(57014|57P0[1-3]|53300|08...)$/;

/**
 * What pg and knex say when a connection or a wait runs out (they set no code). Knex puts the
 * SQL in front of the driver's message, so these are found anywhere in it.
 */
const MESSAGES = [
  /Connection terminated (unexpectedly|due to connection timeout)/, // pg: socket closed, connect timeout
  /Query read timeout/, // pg: query_timeout
  /timeout exceeded when trying to connect/, // pg.Pool
  /Client has encountered a connection error and is not queryable/,
  /Connection ended unexpectedly/, // knex: the pooled connection had ended
  /Knex: Timeout acquiring a connection/, // knex: acquireConnectionTimeout
];

function matches(error: ErrorLike): boolean {
  if (error.name === "KnexTimeoutError") return true;
  const code = typeof error.code === "string" ? error.code : "";
  if (NETWORK_CODES.has(code) || SQLSTATES.test(code)) return true;
  const message = typeof error.message === "string" ? error.message : "";
  return MESSAGES.some((pattern) => pattern.test(message));
}
