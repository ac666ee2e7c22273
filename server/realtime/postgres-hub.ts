import pg from "pg";
import type { Database } from "../db/connection";
import { CACHED_ROWS_CHANNEL } from "../db/cached-rows";
import type { Logger } from "../logger";
import { type HubMessage, RealtimeHub } from "./hub";
import { batchPayload, decodeHubPayload, encodeHubMessage } from "./wire";

export const REALTIME_CHANNEL = "clientdesk_realtime";

export interface PostgresHubOptions {
  /** The app's pool: NOTIFY goes through it. */
  db: Database;
  /** Where the dedicated LISTEN connection goes (config.databaseUrl). */
  connectionString: string;
  logger: Logger;
  channel?: string;
  /** Reconnect backoff: first wait and cap, in ms. */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** How often the LISTEN connection is probed with `select 1`, in ms. */
  probeMs?: number;
}

/**
 * Fan-out between server instances through Postgres LISTEN/NOTIFY. Every instance, the
 * publishing one included, receives each message once through its LISTEN connection, so
 * `transmit` does not deliver locally.
 */
export class PostgresRealtimeHub extends RealtimeHub {
  private readonly channel: string;
  private listener: pg.Client | null = null;
  private starting: Promise<void> | null = null;
  private closed = false;
  private probeTimer: NodeJS.Timeout | null = null;
  private retryTimer: { timer: NodeJS.Timeout; wake: () => void } | null = null;
  /** Encoded payloads waiting for NOTIFY, and for each the message it belongs to. */
  private readonly outbox: string[] = [];
  private readonly outboxOf: PendingMessage[] = [];
  private flushing: Promise<void> | null = null;

  constructor(private readonly options: PostgresHubOptions) {
    super();
    this.channel = options.channel ?? REALTIME_CHANNEL;
    if (!/^[a-z_][a-z0-9_]*$/.test(this.channel))
      throw new Error(`invalid channel name: ${this.channel}`);
  }

  /** Connects the LISTEN connection (retrying with backoff); resolves once it listens. */
  override start(): Promise<void> {
    this.starting ??= this.connectWithRetry(false);
    return this.starting;
  }

  /** True while the LISTEN connection is up. */
  override get listening(): boolean {
    return this.listener !== null;
  }

  /** The backend process id of the LISTEN connection (for diagnostics and tests). */
  get listenerPid(): number | null {
    return (this.listener as { processID?: number | null } | null)?.processID ?? null;
  }

  /**
   * Queues the message's payloads for NOTIFY; resolves once they were sent, rejects if one
   * could not be (the domain event that published it is then retried). One NOTIFY is in
   * flight at a time; what queues meanwhile goes out together in the next (a JSON array up to
   * 7.5 KB), so a burst costs a few round trips, not one each.
   */
  protected override transmit(message: HubMessage): Promise<void> {
    const payloads = encodeHubMessage(message);
    if (payloads.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const pending: PendingMessage = { left: payloads.length, error: null, resolve, reject };
      for (const payload of payloads) {
        this.outbox.push(payload);
        this.outboxOf.push(pending);
      }
      this.kick();
    });
  }

  private kick(): void {
    if (this.flushing || this.outbox.length === 0) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = null;
      this.kick();
    });
  }

  private async flush(): Promise<void> {
    while (this.outbox.length > 0) {
      const { payload, count } = batchPayload(this.outbox);
      this.outbox.splice(0, count);
      const sent = this.outboxOf.splice(0, count);
      let failure: unknown = null;
      try {
        // A NOTIFY needs no durability: its commit need not wait for the WAL flush, which
        // also shortens the time Postgres holds its global notify lock.
        await this.options.db.raw(
          "select set_config('synchronous_commit', 'off', true), pg_notify(?, ?)",
          [this.channel, payload],
        );
      } catch (error) {
        failure = error;
        this.options.logger.error({ err: error, messages: count }, "realtime: NOTIFY failed");
      }
      for (const pending of sent) {
        pending.error ??= failure;
        pending.left -= 1;
        if (pending.left > 0) continue;
        if (pending.error) pending.reject(pending.error);
        else pending.resolve();
      }
    }
  }

  override async close(): Promise<void> {
    this.closed = true;
    await this.flushing;
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.probeTimer = null;
    this.retryTimer?.wake();
    const listener = this.listener;
    this.listener = null;
    if (listener) await listener.end().catch(() => undefined);
    await super.close();
  }

  private async connectWithRetry(reconnecting: boolean): Promise<void> {
    const min = this.options.retryMinMs ?? 500;
    // A short cap: after a brief database outage events flow again within seconds.
    const max = this.options.retryMaxMs ?? 5_000;
    let wait = min;
    for (let attempt = 1; !this.closed; attempt += 1) {
      try {
        await this.connect();
        if (reconnecting) {
          this.options.logger.info({ attempt }, "realtime: LISTEN connection restored");
          // Whatever was published while we were away never reached this instance.
          this.receive({ kind: "resync" });
        }
        return;
      } catch (error) {
        if (this.closed) return;
        const delay = Math.round(wait * (0.75 + Math.random() * 0.5));
        this.options.logger.warn(
          { err: error, attempt, retryInMs: delay },
          "realtime: LISTEN connection failed; retrying",
        );
        await this.sleep(delay);
        wait = Math.min(max, wait * 2);
      }
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: "clientdesk-realtime",
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 10_000,
      query_timeout: 10_000,
    });
    client.on("notification", (notification) => {
      if (this.listener !== client) return;
      if (notification.channel === CACHED_ROWS_CHANNEL) {
        this.receive({ kind: "rows_changed", table: notification.payload ?? "" });
        return;
      }
      if (notification.channel !== this.channel) return;
      const decoded = decodeHubPayload(notification.payload ?? "");
      if (!decoded || decoded.dropped > 0) {
        this.options.logger.warn(
          { payload: notification.payload?.slice(0, 200) },
          "realtime: malformed notification dropped",
        );
      }
      for (const message of decoded?.messages ?? []) {
        try {
          this.receive(message);
        } catch (error) {
          this.options.logger.error({ err: error }, "realtime: a subscriber failed");
        }
      }
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}; LISTEN ${CACHED_ROWS_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners("end");
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    this.probeTimer ??= setInterval(() => void this.probe(), this.options.probeMs ?? 30_000);
    this.probeTimer.unref();
  }

  /** Finds a connection that died without telling (e.g. a dropped network path). */
  private async probe(): Promise<void> {
    const client = this.listener;
    if (!client) return;
    try {
      await client.query("select 1");
    } catch (error) {
      this.lost(client, error);
    }
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.listener !== client) return;
    this.listener = null;
    client.removeAllListeners("notification");
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.options.logger.warn({ err: error }, "realtime: LISTEN connection lost; reconnecting");
    void this.connectWithRetry(true);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.retryTimer = null;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      this.retryTimer = { timer, wake };
    });
  }
}

/** A message given to transmit: settled once its last payload was sent (or failed). */
interface PendingMessage {
  left: number;
  error: unknown;
  resolve: () => void;
  reject: (error: unknown) => void;
}
