import { randomUUID } from "node:crypto";
import { RETRY_DELAYS_MS } from "../../web/src/api/idempotent-post";
import { reconnectsAtOnce } from "../../shared/realtime";
import { backoffDelay, RESTART_SPREAD_MS } from "../../web/src/realtime/realtime-connection";
import type { TestAgent } from "./server";
import { type SocketClose, TestSocket } from "./ws-client";

interface ListedMessage {
  id: string;
  content: string | null;
}

/**
 * One side's browser tab on one conversation, doing what the web client does: one socket
 * (reconnected with the web client's backoff after any drop), and a catch-up after every
 * open and every new_message event: the conversation's messages after the last one it has
 * (`?after=`), page by page. Messages are sent with an Idempotency-Key and retried with the
 * web client's delays while no answer came back or the answer says to try again.
 */
export class ConversationTab {
  /** Message ids in the order the tab learnt them (each must appear once). */
  readonly known: string[] = [];
  /** The instance (X-Served-By) of each socket the tab opened, in order. */
  readonly servedBy: string[] = [];
  /** How each socket ended (the server's close code, 1006 for a cut connection). */
  readonly closes: SocketClose[] = [];
  /** For each send whose retries gave up, what its last attempt got ("409", "502", "no answer"). */
  readonly failures: string[] = [];
  private socket: TestSocket | null = null;
  private stopped = false;
  private fetching: Promise<void> | null = null;
  private again = false;
  private attempt = 0;
  private waiters: (() => void)[] = [];

  constructor(
    readonly agent: TestAgent,
    readonly clientId: string,
  ) {}

  /** Opens the socket (and catches up); resolves once the first one is open. */
  async open(): Promise<void> {
    await this.connect();
  }

  /** The instance the current socket is on, if open. */
  get instance(): string | undefined {
    return this.socket?.isOpen ? this.servedBy.at(-1) : undefined;
  }

  /**
   * POSTs a message the way the web client does; its id once acknowledged (2xx), else null
   * (the retries gave up; `failures` says what the last attempt got).
   */
  async send(content: string): Promise<string | null> {
    const key = randomUUID();
    for (let attempt = 0; ; attempt += 1) {
      let outcome: string;
      try {
        const answer = await this.agent.post(
          `/api/clients/${this.clientId}/messages`,
          { content },
          {
            "idempotency-key": key,
          },
        );
        if (answer.status >= 200 && answer.status < 300) return answer.body.id as string;
        const retry =
          [502, 503, 504].includes(answer.status) ||
          (answer.status === 409 && answer.headers.has("retry-after"));
        if (!retry) throw new Error(`send: ${answer.status} ${JSON.stringify(answer.body)}`);
        outcome = String(answer.status);
      } catch (error) {
        // No answer at all (the connection was cut): may be sent again with the same key.
        if (!(error instanceof TypeError)) throw error;
        outcome = "no answer";
      }
      const delay = RETRY_DELAYS_MS[attempt];
      if (delay === undefined) {
        this.failures.push(outcome);
        return null;
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /** Waits until the tab knows every id in `ids`. */
  async waitUntilKnows(ids: Iterable<string>, timeoutMs = 30_000): Promise<void> {
    const wanted = [...ids];
    const missing = () => {
      const known = new Set(this.known);
      return wanted.filter((id) => !known.has(id));
    };
    await this.until(
      () => missing().length === 0,
      timeoutMs,
      () => `tab ${this.clientId} misses ${missing().length} messages`,
    );
  }

  /** Waits until the tab's socket is open again on an instance other than `not`. */
  async waitUntilOpenElsewhere(not: string, timeoutMs = 30_000): Promise<string> {
    const elsewhere = () => (this.instance && this.instance !== not ? this.instance : null);
    await this.until(
      () => elsewhere() !== null,
      timeoutMs,
      () => `tab ${this.clientId} not reconnected (${this.servedBy})`,
    );
    return elsewhere()!;
  }

  /** Resolves once `done()` holds, checked at every change of the tab (wake), or fails at the deadline. */
  private until(done: () => boolean, timeoutMs: number, failure: () => string): Promise<void> {
    return new Promise((resolve, reject) => {
      const deadline = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== check);
        reject(new Error(failure()));
      }, timeoutMs);
      const check = () => {
        if (!done()) return void this.waiters.push(check);
        clearTimeout(deadline);
        resolve();
      };
      check();
    });
  }

  close(): void {
    this.stopped = true;
    this.socket?.close();
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let socket: TestSocket;
    try {
      socket = await TestSocket.open(this.agent.baseUrl, { cookie: this.agent.cookieHeader });
    } catch {
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      socket.close();
      return;
    }
    this.attempt = 0;
    this.socket = socket;
    this.servedBy.push(String(socket.upgradeHeaders["x-served-by"] ?? "?"));
    socket.ws.on("message", (data) => {
      const event = JSON.parse(data.toString()) as { type: string; clientId: string };
      if (event.type === "new_message" && event.clientId === this.clientId) this.catchUp();
    });
    void socket.closed.then((close) => {
      this.closes.push(close);
      if (this.socket === socket) this.socket = null;
      this.wake();
      // As the page does: a server closing an open socket on purpose (1012) is back at once.
      this.scheduleReconnect(
        reconnectsAtOnce(close.code) ? Math.random() * RESTART_SPREAD_MS : undefined,
      );
    });
    this.wake();
    this.catchUp();
  }

  private scheduleReconnect(atOnce?: number): void {
    if (this.stopped) return;
    const delay = atOnce ?? backoffDelay(this.attempt);
    if (atOnce === undefined) this.attempt += 1;
    setTimeout(() => void this.connect(), delay);
  }

  /** Fetches what came after the last known message; one fetch at a time, repeated if asked meanwhile. */
  private catchUp(): void {
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = this.fetchNewer()
      .catch(() => {
        // Failed (an instance went away mid-request): the next event or reconnect tries again,
        // and so does this, shortly.
        this.again = true;
        return new Promise<void>((resolve) => setTimeout(resolve, 200));
      })
      .finally(() => {
        this.fetching = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.catchUp();
        }
      });
  }

  private async fetchNewer(): Promise<void> {
    for (;;) {
      const last = this.known.at(-1);
      const query = last ? `?after=${last}&limit=200` : "?limit=200";
      const answer = await this.agent.get<ListedMessage[]>(
        `/api/clients/${this.clientId}/messages${query}`,
      );
      if (answer.status !== 200) throw new Error(`catch-up: ${answer.status}`);
      for (const message of answer.body) this.known.push(message.id);
      this.wake();
      if (!last || answer.headers.get("x-has-more") !== "true" || answer.body.length === 0) return;
    }
  }
}
