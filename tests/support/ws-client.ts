import WebSocket, { type ClientOptions } from "ws";
import type { RealtimeEvent as SentEvent } from "../../shared/realtime";
import type { MessagePayload } from "../../shared/schemas/message-payload";

/** An event as received; `messageId` is absent on client_joined and presence. */
export type RealtimeEvent = SentEvent & {
  messageId?: string;
  /** new_message only: the message as this socket's side sees it, and the one before it. */
  message?: MessagePayload;
  afterId?: string | null;
};

export interface SocketOptions {
  /** The Cookie header, e.g. `sid=...` or a TestAgent's cookieHeader. */
  cookie?: string;
  /** The Origin header; the server's own origin unless given ("" sends none). */
  origin?: string;
  path?: string;
  /** Extra `ws` client options (e.g. autoPong: false). */
  ws?: ClientOptions;
}

export interface SocketClose {
  code: number;
  reason: string;
}

/** A websocket to a test server that records every event it receives. */
export class TestSocket {
  readonly events: RealtimeEvent[] = [];
  readonly closed: Promise<SocketClose>;
  /** The upgrade answer's headers (e.g. X-Served-By behind the balancer). */
  upgradeHeaders: Record<string, string | string[] | undefined> = {};
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      this.events.push(JSON.parse(data.toString()) as RealtimeEvent);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => {
      ws.on("close", (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const wake of this.waiters.splice(0)) wake();
      });
    });
    ws.on("error", () => undefined);
    ws.once("upgrade", (response) => {
      this.upgradeHeaders = response.headers;
    });
  }

  /** Opens a socket; rejects with the HTTP status when the server refuses the upgrade. */
  static open(baseUrl: string, options: SocketOptions = {}): Promise<TestSocket> {
    const ws = connect(baseUrl, options);
    const socket = new TestSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once("open", () => resolve(socket));
      ws.once("unexpected-response", (_req, res) => {
        reject(new SocketRefused(res.statusCode ?? 0));
        ws.terminate();
      });
      ws.once("error", (error) => reject(error));
    });
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Waits for an event matching `predicate` (already received or yet to come). */
  async waitFor(
    predicate: (event: RealtimeEvent) => boolean,
    timeoutMs = 5_000,
  ): Promise<RealtimeEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0 || this.ws.readyState === WebSocket.CLOSED) {
        throw new Error(
          `no matching event within ${timeoutMs} ms; received ${JSON.stringify(this.events)}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Events about this message id. */
  eventsFor(messageId: string): RealtimeEvent[] {
    return this.events.filter((event) => event.messageId === messageId);
  }

  /** Resolves with the close code, or rejects if the socket stays open for `timeoutMs`. */
  async waitForClose(timeoutMs = 5_000): Promise<SocketClose> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`socket still open after ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.closed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sends a frame: a value as JSON, a string as it is. */
  send(frame: unknown): void {
    this.ws.send(typeof frame === "string" ? frame : JSON.stringify(frame));
  }

  /** Resolves once the server answered a ping: every frame sent before has been read by then. */
  roundTrip(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once("pong", () => resolve());
      this.ws.ping();
    });
  }

  close(): void {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.terminate();
  }
}

export class SocketRefused extends Error {
  constructor(readonly status: number) {
    super(`websocket upgrade refused with ${status}`);
  }
}

/** The status the server answers an upgrade with (101 when it accepts). */
export async function upgradeStatus(baseUrl: string, options: SocketOptions = {}): Promise<number> {
  try {
    const socket = await TestSocket.open(baseUrl, options);
    socket.close();
    return 101;
  } catch (error) {
    if (error instanceof SocketRefused) return error.status;
    throw error;
  }
}

function connect(baseUrl: string, options: SocketOptions): WebSocket {
  const url = new URL(options.path ?? "/ws", baseUrl);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  const origin = options.origin ?? new URL(baseUrl).origin;
  return new WebSocket(url, { headers, ...(origin ? { origin } : {}), ...options.ws });
}
