import type { Services } from "../context";

/** A background task the server repeats; `run` does one pass and must be safe to repeat. */
export interface Job {
  name: string;
  intervalMs: number;
  /** Also one pass as the server starts (with timers), e.g. to clean up after a crash. */
  runAtStart?: boolean;
  run(services: Services): Promise<void>;
}
