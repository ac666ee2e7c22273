import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { batchedLogDestination } from "./log-destination";

const line = (level: number, msg: string) => `{"level":${level},"time":1,"msg":"${msg}"}\n`;

describe("batchedLogDestination", () => {
  let dir: string;
  let file: string;
  let fd: number;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "log-destination-"));
    file = path.join(dir, "out.log");
    fd = openSync(file, "a");
  });
  afterEach(() => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });
  const written = () => readFileSync(file, "utf8");

  it("writes info lines together, a moment later, in order", async () => {
    const destination = batchedLogDestination(fd, 20);
    destination.write(line(30, "one"));
    destination.write(line(20, "two"));
    expect(written()).toBe("");
    await expect.poll(written).toBe(line(30, "one") + line(20, "two"));
  });

  it("writes a warning or an error at once, after the lines waiting before it", () => {
    const destination = batchedLogDestination(fd, 60_000);
    destination.write(line(30, "before"));
    destination.write(line(50, "failed"));
    expect(written()).toBe(line(30, "before") + line(50, "failed"));
    destination.write(line(40, "warned"));
    expect(written()).toBe(line(30, "before") + line(50, "failed") + line(40, "warned"));
  });

  it("writes at once when the waiting lines reach the size limit, and on flush()", () => {
    const destination = batchedLogDestination(fd, 60_000, 150);
    const long = line(30, "x".repeat(80));
    destination.write(long);
    expect(written()).toBe("");
    destination.write(long);
    expect(written()).toBe(long + long);
    destination.write(line(30, "last"));
    destination.flush();
    expect(written()).toBe(long + long + line(30, "last"));
  });
});
