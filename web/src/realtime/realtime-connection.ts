/**
 * The browser's end of /ws: one socket, events handed to a callback, reconnects with
 * exponential backoff and jitter after a drop (at once after a 1012 or a 4401), and a catch-up
 * call after each reconnect so that nothing sent while the socket was down is missed. Free of
 * React so it can be tested with a fake WebSocket.
 */
import {
  CLOSE_CODES,
  endsRealtime,
  type RealtimeEvent,
  reconnectsAtOnce,
} from "../../../shared/realtime";

export type { RealtimeEvent };

export const BACKOFF_FIRST_MS = 500;
export const BACKOFF_MAX_MS = 15_000;
/**
 * After a 1012 (server restarting, or resync) the page reconnects at once, within this random
 * spread: thousands of pages closed by one draining instance must not all arrive in one ms.
 */
export const RESTART_SPREAD_MS = 250;

export type RealtimeStatus =
  /** The first connection is being made. */
  | "connecting"
  | "open"
  /** The socket dropped; the next attempt is scheduled or under way. */
  | "reconnecting"
  /** The server ended access (4001): no more attempts. */
  | "ended"
  /** Closed by the page. */
  | "closed";

/**
 * Delay before reconnect attempt `attempt` (0 for the first): 0.5 s doubling up to 15 s,
 * with "equal jitter" (half fixed, half random) so that many pages dropped at once by a
 * restarting server do not all come back in the same instant.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.max(0, attempt));
  return ceiling / 2 + random() * (ceiling / 2);
}

/**
 * The events' schema (and zod with it), loaded once, after the first paint: nothing arrives
 * before the socket opens, and the client portal's first load stays small.
 */
let eventSchema: Promise<typeof import("../../../shared/realtime-events")> | null = null;
const loadEventSchema = () => {
  eventSchema ??= import("../../../shared/realtime-events");
  return eventSchema;
};

/** A frame from the server as an event (the shared schema), or null for anything else. */
export async function parseRealtimeEvent(data: unknown): Promise<RealtimeEvent | null> {
  if (typeof data !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = (await loadEventSchema()).realtimeEventSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The socket address for the API at `apiBase` ("" = this page's origin): ws, or wss under https. */
export function websocketUrl(apiBase: string, page: { href: string }): string {
  const url = new URL(`${apiBase}/ws`, page.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.hash = "";
  url.search = "";
  return url.toString();
}

/** The part of the WebSocket API used here, so tests can pass a fake. */
export interface SocketLike {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  close(code?: number, reason?: string): void;
  /** Presence frames (issue 26) are the only thing a page sends. */
  send?(data: string): void;
}

export interface RealtimeOptions {
  url: string;
  onEvent: (event: RealtimeEvent) => void;
  /**
   * The socket is open (first time or after a drop): refetch what may have changed while it
   * was not. The first time counts too: the page's data may have loaded before the socket
   * opened, and an event sent in between would otherwise be missed.
   */
  onConnected?: () => void;
  /** The server closed with 4001 (access removed): no reconnect. */
  onEnded?: (code: number) => void;
  /**
   * An attempt failed before the socket opened (`failures` in a row); e.g. signed out. A
   * socket closed because its session ended (4401) counts as the first of them.
   */
  onConnectFailed?: (failures: number) => void;
  onStatus?: (status: RealtimeStatus) => void;
  createSocket?: (url: string) => SocketLike;
  random?: () => number;
  /** Where "online" events come from (window in the browser); reconnects at once when back. */
  network?: Pick<EventTarget, "addEventListener" | "removeEventListener">;
}

export interface RealtimeConnection {
  readonly status: RealtimeStatus;
  /** Sends a frame while the socket is open; false (nothing sent) otherwise. */
  send(data: string): boolean;
  /** Closes the socket for good (e.g. the page unmounts). */
  close(): void;
}

export function connectRealtime(options: RealtimeOptions): RealtimeConnection {
  const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
  const random = options.random ?? Math.random;
  let status: RealtimeStatus = "connecting";
  let socket: SocketLike | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Attempts since the socket was last open; sets the backoff. */
  let attempt = 0;
  let failuresBeforeOpen = 0;
  let everOpened = false;
  let stopped = false;
  /** Frames are parsed one after another, so that events keep their order. */
  let delivered: Promise<void> = Promise.resolve();

  const setStatus = (next: RealtimeStatus) => {
    if (status === next) return;
    status = next;
    options.onStatus?.(next);
  };

  const open = () => {
    timer = null;
    if (stopped) return;
    let opened = false;
    let current: SocketLike;
    try {
      current = createSocket(options.url);
    } catch {
      scheduleReconnect();
      return;
    }
    socket = current;
    void loadEventSchema();
    current.onopen = () => {
      if (stopped || socket !== current) return;
      opened = true;
      attempt = 0;
      failuresBeforeOpen = 0;
      setStatus("open");
      options.onConnected?.();
      everOpened = true;
    };
    current.onmessage = (message) => {
      if (stopped || socket !== current) return;
      delivered = delivered.then(async () => {
        const event = await parseRealtimeEvent(message.data).catch(() => null);
        if (event && !stopped) options.onEvent(event);
      });
    };
    current.onerror = () => {
      // A close event always follows; reconnecting is decided there.
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      if (stopped) return;
      if (endsRealtime(event.code)) {
        stopped = true;
        setStatus("ended");
        options.onEnded?.(event.code);
        return;
      }
      // A session that ended may have a successor in this browser's cookie (a password change
      // signs this browser in anew): the next attempt, at once, tries it. Its end counts as a
      // first refusal, so that a second one (nobody signed in here) asks who is signed in.
      if (!opened || event.code === CLOSE_CODES.sessionEnded) {
        failuresBeforeOpen += 1;
        options.onConnectFailed?.(failuresBeforeOpen);
      }
      // An open socket the server closed on purpose: back at once; the backoff still applies
      // if the next attempt fails.
      if (opened && reconnectsAtOnce(event.code)) scheduleReconnect(random() * RESTART_SPREAD_MS);
      else scheduleReconnect();
    };
  };

  const scheduleReconnect = (delay?: number) => {
    if (stopped || timer !== null) return;
    setStatus(everOpened ? "reconnecting" : "connecting");
    if (delay !== undefined) {
      timer = setTimeout(open, delay);
      return;
    }
    timer = setTimeout(open, backoffDelay(attempt, random));
    attempt += 1;
  };

  /** Back online: try now rather than at the end of a long backoff. */
  const onOnline = () => {
    if (stopped || socket !== null || timer === null) return;
    clearTimeout(timer);
    attempt = 0;
    open();
  };
  options.network?.addEventListener("online", onOnline);

  open();

  return {
    get status() {
      return status;
    },
    send(data) {
      if (status !== "open" || !socket?.send) return false;
      try {
        socket.send(data);
        return true;
      } catch {
        // Closing meanwhile: the close event reconnects, and the page says it again then.
        return false;
      }
    },
    close() {
      if (stopped && status !== "ended") return;
      stopped = true;
      options.network?.removeEventListener("online", onOnline);
      if (timer !== null) clearTimeout(timer);
      timer = null;
      const current = socket;
      socket = null;
      current?.close(1000, "Page closed");
      if (status !== "ended") setStatus("closed");
    },
  };
}
