import type { Server } from "node:http";
import type { DrainState } from "./drain-state";
import type { InFlightRequests } from "./in-flight-requests";

/**
 * What a drain waits for: the websocket server (realtime/socket-server.ts), the job runner
 * (jobs/job-runner.ts), the reply-by-email listener (inbound/smtp-listener.ts). Described here
 * rather than imported: index.ts, which starts them, hands them in.
 */
interface Closing {
  close(): Promise<void>;
}
interface Stopping {
  stop(): Promise<void>;
}

/** What a drain uses of the services (context.ts): the drain flag, then each one it closes. */
interface DrainedServices {
  drain: DrainState;
  afterAnswer: { idle(): Promise<void> };
  outbox: Closing;
  /** The domain events (server/domain-events): the deletes of finished rows under way. */
  events: { idle(): Promise<void> };
  realtime: Closing;
  db: { destroy(): Promise<void> };
}

export interface RunningInstance {
  server: Server;
  services: DrainedServices;
  sockets: Closing;
  jobs: Stopping;
  requests: InFlightRequests;
  /** The reply-by-email SMTP listener, when INBOUND_SMTP_PORT is set. */
  inbound?: Closing;
}

/**
 * Stops this instance without losing work, in this order:
 * 1. /readyz answers 503 draining and every answer says Connection: close (DrainState); idle
 *    keep-alive connections are closed, websocket upgrades refused (503).
 * 2. At the same time: websockets close with 1012 (browsers reconnect at once, through the
 *    balancer to another instance, and catch up), the requests under way finish, and the job
 *    pass under way finishes (no new one starts); the reply-by-email listener stops taking
 *    connections and lets the mails under way finish (5 s at most, then the relay retries).
 * 3. The port closes (new connections are refused); requests that arrived during step 2 finish.
 * 4. Work queued after an answer finishes and the outbox's pass under way ends (unsent mail
 *    waits in the database for the next instance), and so do the deletes of the domain events
 *    that ran (one not yet run waits in the outbox for the job); then the mailer, LISTEN and
 *    the pool close.
 * The listener stays open during step 2 so a balancer's check sees 503 rather than a refused
 * connection while the slow requests finish; either takes the instance out of rotation.
 * The caller bounds the whole with a deadline (shutdown.ts).
 */
export async function drain(instance: RunningInstance): Promise<void> {
  const { server, services, sockets, jobs, requests } = instance;
  services.drain.begin();
  server.closeIdleConnections();
  await Promise.all([sockets.close(), requests.settled(), jobs.stop(), instance.inbound?.close()]);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await closed;
  await services.events.idle();
  await services.afterAnswer.idle();
  await services.outbox.close();
  await services.realtime.close();
  await services.db.destroy();
}
