import pino from "pino";
import { bufferedLogDestination, type LogDestination } from "./log-destination";

const WARN = 40;

export type Logger = pino.Logger & {
  /** Writes a line already in the logger's JSON shape, past pino's serializers (hot paths only). */
  writeLine(line: string): void;
};

export function createLogger(
  level: string,
  destination: LogDestination = bufferedLogDestination(),
): Logger {
  const logger = pino(
    {
      level,
      base: undefined,
      redact: { paths: ["req.headers.cookie", "password", "*.password"], censor: "[redacted]" },
      hooks: {
        // A warning or an error goes out at once, with the lines waiting before it.
        logMethod(args, method, methodLevel) {
          method.apply(this, args);
          if (methodLevel >= WARN) destination.flush?.();
        },
      },
    },
    destination,
  );
  return Object.assign(logger, { writeLine: (line: string) => destination.write(line) });
}
