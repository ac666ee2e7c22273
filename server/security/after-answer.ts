import type { Logger } from "../logger";

interface Task {
  label: string;
  work: () => Promise<void>;
}

/**
 * Work behind a public endpoint that must neither delay nor shape its answer: finding out
 * whether an address has an account, issuing its code, mailing it. A task starts on the next
 * turn of the event loop, after the answer of the request that queued it has been written
 * (Koa writes it in the promise continuations of the handler, before any setImmediate), and at
 * most `concurrency` run at once so a burst cannot starve the requests that follow.
 *
 * In memory on purpose (docs/decisions.md, "Answer first"): what is queued when the process
 * dies is lost, and the person who was told "on its way" asks again; a durable row would have
 * to be written for every address, known or not, for the same answer time.
 */
export class AfterAnswerQueue {
  private readonly waiting: Task[] = [];
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly logger: Logger,
    private readonly concurrency = 4,
    /** Beyond this, new work is dropped (and logged): the per-IP limits keep it far away. */
    private readonly maxWaiting = 10_000,
  ) {}

  /** Queues `work`; never throws and never waits. */
  add(label: string, work: () => Promise<void>): void {
    if (this.waiting.length >= this.maxWaiting) {
      this.logger.warn({ task: label }, "after-answer queue full: task dropped");
      return;
    }
    this.waiting.push({ label, work });
    setImmediate(() => this.drain());
  }

  /** How many tasks are queued or running. */
  get size(): number {
    return this.waiting.length + this.running;
  }

  /** Resolves once nothing is queued or running (tests; shutdown). */
  idle(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private drain(): void {
    while (this.running < this.concurrency && this.waiting.length > 0) {
      const task = this.waiting.shift() as Task;
      this.running += 1;
      void this.run(task);
    }
  }

  private async run(task: Task): Promise<void> {
    try {
      await task.work();
    } catch (error) {
      this.logger.warn({ err: error, task: task.label }, "after-answer task failed");
    } finally {
      this.running -= 1;
      this.drain();
      if (this.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }
}
