import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { processMetrics } from "./process-metrics";

/** Request duration buckets in seconds: most answers take milliseconds, uploads seconds. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type JobOutcome = "ok" | "failed";

/**
 * The Prometheus metrics of one app. A registry of its own rather than prom-client's global
 * one: tests start several apps in one process, and each must count only its own requests.
 * Node's process metrics are the process's, registered once (process-metrics.ts) and served
 * with every app's. Gauges that describe state (open sockets, queued mail) are read when
 * scraped, so counting costs nothing on the paths they describe.
 */
export class AppMetrics {
  readonly registry = new Registry();
  readonly requestDuration: Histogram<"method" | "route" | "status">;
  readonly messagesSent: Counter<"kind">;
  readonly emails: Counter<"outcome">;
  readonly jobRuns: Counter<"job" | "outcome">;
  private readonly socketCounts = new Set<() => number>();
  private readonly queueDepths = new Set<() => number>();
  private mailOutboxDepth: (() => Promise<{ pending: number; dead: number }>) | null = null;

  constructor() {
    const registers = [this.registry];
    this.requestDuration = new Histogram({
      name: "clientdesk_http_request_duration_seconds",
      help: "HTTP answers by method, route pattern (not the raw path) and status class (2xx, 4xx...)",
      labelNames: ["method", "route", "status"],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.messagesSent = new Counter({
      name: "clientdesk_messages_sent_total",
      help: "Messages stored and announced by this instance (kind: text or file)",
      labelNames: ["kind"],
      registers,
    });
    this.emails = new Counter({
      name: "clientdesk_emails_total",
      help: "Mail handed to the SMTP server (outcome: sent) or refused by it / unreachable (failed), per attempt",
      labelNames: ["outcome"],
      registers,
    });
    this.jobRuns = new Counter({
      name: "clientdesk_job_runs_total",
      help: "Background job passes by job and outcome (ok, failed)",
      labelNames: ["job", "outcome"],
      registers,
    });
    const socketCounts = this.socketCounts;
    new Gauge({
      name: "clientdesk_websockets_open",
      help: "Websockets open on this instance",
      registers,
      collect() {
        let open = 0;
        for (const count of socketCounts) open += count();
        this.set(open);
      },
    });
    const queueDepths = this.queueDepths;
    new Gauge({
      name: "clientdesk_email_queue_depth",
      help: "Mail and other after-answer work queued or running in this instance (codes, links)",
      registers,
      collect() {
        let depth = 0;
        for (const size of queueDepths) depth += size();
        this.set(depth);
      },
    });
    const outboxDepth = () => this.mailOutboxDepth;
    new Gauge({
      name: "clientdesk_mail_outbox",
      help: "Mail in the durable outbox of the whole installation (state: pending, or dead: given up after a day)",
      labelNames: ["state"],
      registers,
      async collect() {
        const read = outboxDepth();
        if (!read) return;
        // The database away: the gauge keeps its last value and the scrape still answers.
        const depth = await read().catch(() => null);
        if (!depth) return;
        this.set({ state: "pending" }, depth.pending);
        this.set({ state: "dead" }, depth.dead);
      },
    });
  }

  /** The Prometheus text of the process's metrics and this app's. */
  async exposition(): Promise<string> {
    const [process, app] = await Promise.all([processMetrics().metrics(), this.registry.metrics()]);
    return `${process}\n${app}`;
  }

  /** Records one answered request; `route` is the pattern (e.g. /api/clients/:id). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requestDuration.observe(
      { method, route, status: STATUS_CLASSES[Math.floor(status / 100)] ?? "other" },
      seconds,
    );
  }

  /** The websocket server reports its open sockets through this, read at each scrape. */
  countSockets(count: () => number): () => void {
    this.socketCounts.add(count);
    return () => this.socketCounts.delete(count);
  }

  /** A queue of outgoing mail reports its depth through this, read at each scrape. */
  countEmailQueue(depth: () => number): void {
    this.queueDepths.add(depth);
  }

  /** The mail outbox reports its rows through this, counted at each scrape. */
  countMailOutbox(depth: () => Promise<{ pending: number; dead: number }>): void {
    this.mailOutboxDepth = depth;
  }

  recordJobRun(job: string, outcome: JobOutcome): void {
    this.jobRuns.inc({ job, outcome });
  }
}

const STATUS_CLASSES: Record<number, string> = { 1: "1xx", 2: "2xx", 3: "3xx", 4: "4xx", 5: "5xx" };
