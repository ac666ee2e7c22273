import type { Services } from "../context";

/** A background task the server repeats; `run` does one pass and must be safe to repeat. */
export interface Job {
  name: string;
  intervalMs: number;
  run(services: Services): Promise<void>;
}
