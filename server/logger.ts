import pino from "pino";
import { batchedLogDestination, type LogDestination } from "./log-destination";

export type Logger = pino.Logger;

export function createLogger(
  level: string,
  destination: Pick<LogDestination, "write"> = batchedLogDestination(1),
): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: ["req.headers.cookie", "password", "*.password"], censor: "[redacted]" },
    },
    destination,
  );
}

/** Writes a line already in the logger's JSON shape to its destination (hot paths only). */
export function writeLogLine(logger: Logger, line: string): void {
  const destination = (logger as unknown as { [key: symbol]: { write(line: string): void } })[
    pino.symbols.streamSym
  ];
  destination?.write(line);
}
