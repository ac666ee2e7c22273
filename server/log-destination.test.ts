import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bufferedLogDestination } from "./log-destination";
import { createLogger } from "./logger";

const line = (level: number, msg: string) => `{"level":${level},"time":1,"msg":"${msg}"}\n`;

describe("bufferedLogDestination", () => {
  let dir: string;
  let file: string;
  let destination: ReturnType<typeof bufferedLogDestination>;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "log-destination-"));
    file = path.join(dir, "out.log");
    destination = bufferedLogDestination(openSync(file, "a"));
  });
  afterEach(() => {
    destination.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  const written = () => readFileSync(file, "utf8");

  it("writes lines together, a moment later, in order", async () => {
    destination.write(line(30, "one"));
    destination.write(line(20, "two"));
    expect(written()).toBe("");
    await expect.poll(written).toBe(line(30, "one") + line(20, "two"));
  });

  it("writes what waits at once on flushSync(), as the exits do", () => {
    destination.write(line(30, "last words"));
    destination.flushSync();
    expect(written()).toBe(line(30, "last words"));
  });

  it("through the logger: request lines and pino's lines in one stream, a warning sent at once", async () => {
    const logger = createLogger("info", destination);
    logger.writeLine(line(30, "request"));
    logger.warn("slow");
    await expect
      .poll(written)
      .toMatch(
        /^\{"level":30,"time":1,"msg":"request"\}\n\{"level":40,"time":\d+,"msg":"slow"\}\n$/,
      );
  });
});
