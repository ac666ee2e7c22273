import pino from "pino";

/** Where the logger writes: pino's destination in production, any `{ write(line) }` in tests. */
export interface LogDestination {
  write(line: string): void;
  /** Starts writing what waits (pino's destination); warnings and errors call it. */
  flush?(): void;
}

export type BufferedLogDestination = ReturnType<typeof pino.destination>;

/**
 * pino's own destination (sonic-boom) on `fd`, buffered: lines are written together,
 * asynchronously, once 8 KB wait (sonic-boom's limit is below its 16 KB write size) or every
 * 100 ms. One write call per batch instead of one per request line: a write call costs about a
 * sixth of a whole GET /api/user (docs/benchmarks.md). When the process exits (process.exit and
 * uncaught exceptions included) pino writes what is left synchronously; server/index.ts also
 * flushes before its own exits. A hard kill (SIGKILL, out of memory) loses at most 100 ms of lines.
 */
export function bufferedLogDestination(fd = 1): BufferedLogDestination {
  return pino.destination({ dest: fd, minLength: 8 * 1024, periodicFlush: 100, sync: false });
}
