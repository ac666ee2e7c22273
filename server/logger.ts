import pino from "pino";

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ["req.headers.cookie", "password", "*.password"], censor: "[redacted]" },
  });
}
