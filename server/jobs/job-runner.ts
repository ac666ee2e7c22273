import type { Services } from "../context";
import type { Job } from "./job";

export interface JobRunner {
  /** One pass of the named job, now; tests drive jobs this way with their own clock. */
  runOnce(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs each job every `intervalMs`, never two passes of one job at once in this process
 * (other instances coordinate in the database, e.g. FOR UPDATE SKIP LOCKED).
 * A failed pass is logged and the next one tries again.
 */
export function startJobs(
  services: Services,
  jobs: Job[],
  options: { timers?: boolean } = {},
): JobRunner {
  const running = new Map<string, Promise<void>>();
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  const pass = (job: Job): Promise<void> => {
    const current = running.get(job.name);
    if (current) return current;
    const started = job
      .run(services)
      .then(
        () => services.metrics.recordJobRun(job.name, "ok"),
        (error) => {
          services.metrics.recordJobRun(job.name, "failed");
          services.logger.error({ err: error, job: job.name }, "job failed");
        },
      )
      .finally(() => running.delete(job.name));
    running.set(job.name, started);
    return started;
  };

  if (options.timers !== false) {
    for (const job of jobs) {
      const timer = setInterval(() => {
        if (!stopped) void pass(job);
      }, job.intervalMs);
      timer.unref();
      timers.push(timer);
      if (job.runAtStart) void pass(job);
    }
  }

  return {
    async runOnce(name) {
      const job = jobs.find((candidate) => candidate.name === name);
      if (!job) throw new Error(`no job named ${name}`);
      // A pass already under way may have started before the caller's change: wait, then run.
      await running.get(name);
      await pass(job);
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await Promise.all(running.values());
    },
  };
}
