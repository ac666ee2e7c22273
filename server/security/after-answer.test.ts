import { describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { AfterAnswerQueue } from "./after-answer";

describe("the after-answer queue", () => {
  it("runs work only after the caller has gone on, and survives a failing task", async () => {
    const lines: string[] = [];
    const queue = new AfterAnswerQueue(createLogger("warn", { write: (line) => lines.push(line) }));
    const done: string[] = [];
    queue.add("fails", async () => {
      throw new Error("smtp down");
    });
    queue.add("works", async () => {
      done.push("works");
    });
    // Nothing ran while the request that queued it was still being answered.
    expect(done).toEqual([]);
    expect(queue.size).toBe(2);
    await queue.idle();
    expect(done).toEqual(["works"]);
    expect(queue.size).toBe(0);
    expect(lines.join("")).toContain("after-answer task failed");
  });

  it("runs at most four at once", async () => {
    const queue = new AfterAnswerQueue(createLogger("silent"));
    let running = 0;
    let most = 0;
    for (let i = 0; i < 12; i += 1) {
      queue.add("task", async () => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
      });
    }
    await queue.idle();
    expect(most).toBe(4);
  });
});
