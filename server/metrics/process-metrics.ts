import { collectDefaultMetrics, Registry } from "prom-client";

let registry: Registry | undefined;

/**
 * Node's default metrics (CPU, memory, event loop lag, GC, handles) in a registry of their
 * own, made once per process: they describe the process, not an app, and each registration
 * starts its own event-loop monitor and GC observer (tests start many apps in one process).
 */
export function processMetrics(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
