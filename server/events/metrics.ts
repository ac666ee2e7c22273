import type { Services } from "../context";
import type { EventListener } from "../domain-events/events";

/**
 * Counts messages stored, by kind (text or file), on the instance that runs the event. A row
 * run again after a crash counts again on its new instance, whose counter started from zero.
 */
export const metricsListener: EventListener<Pick<Services, "metrics">> = {
  name: "metrics",
  handles: ["MessageCreated", "FileUploaded", "VersionUploaded"],
  handle(services, { event }) {
    services.metrics.messagesSent.inc({ kind: event.type === "MessageCreated" ? "text" : "file" });
  },
};
