import type { Services } from "../context";
import type { EventListener } from "../domain-events/events";
import { metricsListener } from "./metrics";
import { pushListener } from "./push";
import { realtimeListener } from "./realtime";

/**
 * Every listener of domain events, in the order they run for one event: realtime first (the
 * other side sees it), then push and metrics. Email is not a listener: a command writes its
 * mail to the mail outbox in its own transaction (server/mail/outbox.ts), and the unanswered-
 * message email is a deadline stored with the message (commands/notification-schedule.ts).
 */
export const EVENT_LISTENERS: readonly EventListener<Services>[] = [
  realtimeListener,
  pushListener,
  metricsListener,
];
