/**
 * How long the server waits on PostgreSQL before it gives up and answers 503 (see
 * database-unavailable.ts), so that a frozen or unreachable database costs a caller seconds,
 * not a hung request. Each step has its own limit: getting a pooled connection, opening a new
 * one, and one statement.
 */
export const DATABASE_TIMEOUTS = {
  /** Waiting for a free connection of the pool. */
  acquireMs: 5_000,
  /** Opening a new connection (TCP and the start-up handshake). */
  connectMs: 5_000,
  /** Server side: PostgreSQL cancels a statement running longer (error 57014). */
  statementMs: 5_000,
  /**
   * Client side: no answer at all (a frozen server or network path). A little longer than the
   * statement timeout so that a merely slow statement is cancelled by the server, which keeps
   * the connection usable.
   */
  queryMs: 5_500,
} as const;
