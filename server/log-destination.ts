import { writeSync } from "node:fs";

const WARN_DIGIT = "4".charCodeAt(0);
const pending = new Set<() => void>();
let exitHooked = false;

export interface LogDestination {
  write(line: string): void;
  flush(): void;
}

/**
 * Where the logger writes: lines of level info and below are collected and written together,
 * at most `flushMs` later (or once `maxBytes` wait); a warning or an error is written at once,
 * with everything before it; the process's exit writes what is left. One write call per
 * batch instead of one per request line: on our machines a write call costs about a sixth of
 * a whole GET /api/user (docs/benchmarks.md). A hard kill (SIGKILL, out of memory) loses at
 * most `flushMs` of info lines.
 */
export function batchedLogDestination(fd = 1, flushMs = 100, maxBytes = 64 * 1024): LogDestination {
  let lines: string[] = [];
  let bytes = 0;
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    pending.delete(flush);
    if (lines.length === 0) return;
    const text = lines.join("");
    lines = [];
    bytes = 0;
    try {
      writeSync(fd, text);
    } catch {
      // Nowhere left to report it (the output is closed): drop the lines, not the server.
    }
  };

  if (!exitHooked) {
    exitHooked = true;
    process.on("exit", () => {
      for (const flushOne of [...pending]) flushOne();
    });
  }

  return {
    /** Pino writes whole lines, each starting with {"level":NN. */
    write(line: string) {
      lines.push(line);
      bytes += line.length;
      if (line.charCodeAt(9) >= WARN_DIGIT || bytes >= maxBytes) {
        flush();
      } else if (!timer) {
        pending.add(flush);
        timer = setTimeout(flush, flushMs).unref();
      }
    },
    flush,
  };
}
