/**
 * Whether the server can be reached, for the offline banner, the message queue and react-query.
 * Offline when a request gets no answer (or a 502/503/504: the desktop app's bridge and a proxy
 * answer those when the server is away), when the browser says so, or when the realtime socket
 * dropped and a probe of /healthz fails. While offline, /healthz is probed with backoff; any
 * answer, a request's answer or the socket opening again means online. Free of React.
 */

export type ConnectivityState = "online" | "offline";

/** Why offline: the device has no network, or the network works but the server does not answer. */
export type OfflineCause = "device" | "server";

/** Waits between probes while offline; the last repeats. */
export const PROBE_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 15_000] as const;

export interface ConnectivityOptions {
  /** Resolves true when the server answered (any status it sends itself), false otherwise. */
  probe: () => Promise<boolean>;
  /** Where "online"/"offline" events come from (window), and navigator.onLine. */
  network?: Pick<Window, "addEventListener" | "removeEventListener">;
  isDeviceOnline?: () => boolean;
  delaysMs?: readonly number[];
}

export interface Connectivity {
  readonly state: ConnectivityState;
  readonly cause: OfflineCause | null;
  /** A request got no answer from the server. */
  reportUnreachable(): void;
  /**
   * The server answered a request sent at `sentAt` (the `epoch` then). An answer to a request
   * sent before the last time the connection went away proves nothing about now: ignored.
   */
  reportReachable(sentAt?: number): void;
  /** Counts the times the connection went away. */
  readonly epoch: number;
  /** The realtime socket opened (true) or dropped (false: checked with a probe at once). */
  reportSocket(open: boolean): void;
  /** Probe now (e.g. "Try now"), rather than at the end of the current wait. */
  probeNow(): void;
  subscribe(listener: () => void): () => void;
  /** Fires "online" each time the server can be reached again (the socket then tries at once). */
  readonly returns: EventTarget;
  stop(): void;
}

export function createConnectivity(options: ConnectivityOptions): Connectivity {
  const delays = options.delaysMs ?? PROBE_DELAYS_MS;
  const deviceOnline = options.isDeviceOnline ?? (() => true);
  const listeners = new Set<() => void>();
  let state: ConnectivityState = deviceOnline() ? "online" : "offline";
  let timer: ReturnType<typeof setTimeout> | null = null;
  let probing = false;
  let attempt = 0;
  /** Counts returns to online: a probe sent before the last one cannot undo it. */
  let onlineCount = 0;
  let offlineCount = 0;
  let stopped = false;

  const returns = new EventTarget();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  const set = (next: ConnectivityState) => {
    if (state === next) return;
    state = next;
    if (next === "offline") offlineCount += 1;
    notify();
    if (next === "online") returns.dispatchEvent(new Event("online"));
  };

  const clearTimer = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  const schedule = () => {
    if (stopped || timer !== null || probing || state === "online") return;
    const delay = delays[Math.min(attempt, delays.length - 1)] ?? 1_000;
    attempt += 1;
    timer = setTimeout(probe, delay);
  };

  /** One probe; while offline another follows after the next wait. */
  const probe = () => {
    timer = null;
    if (stopped || probing) return;
    probing = true;
    const sentAt = onlineCount;
    options.probe().then(
      (answered) => finishProbe(answered, sentAt),
      () => finishProbe(false, sentAt),
    );
  };

  const finishProbe = (answered: boolean, sentAt: number) => {
    probing = false;
    if (stopped) return;
    if (sentAt !== onlineCount) schedule();
    else if (answered) goOnline();
    else {
      set("offline");
      schedule();
    }
  };

  const goOnline = () => {
    clearTimer();
    attempt = 0;
    if (state === "offline") onlineCount += 1;
    set("online");
  };

  const goOffline = () => {
    set("offline");
    schedule();
  };

  const onDeviceOnline = () => {
    attempt = 0;
    clearTimer();
    probe();
  };
  const onDeviceOffline = () => {
    goOffline();
    // The cause may change while the state does not (the server was away already).
    notify();
  };
  options.network?.addEventListener("online", onDeviceOnline);
  options.network?.addEventListener("offline", onDeviceOffline);
  if (state === "offline") schedule();

  return {
    get state() {
      return state;
    },
    get cause() {
      if (state === "online") return null;
      return deviceOnline() ? "server" : "device";
    },
    reportUnreachable: goOffline,
    reportReachable(sentAt) {
      if (sentAt === undefined || sentAt === offlineCount) goOnline();
    },
    get epoch() {
      return offlineCount;
    },
    reportSocket(open) {
      if (open) goOnline();
      else if (state === "online") probe();
    },
    probeNow() {
      if (state === "online") return;
      clearTimer();
      probe();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    returns,
    stop() {
      stopped = true;
      clearTimer();
      options.network?.removeEventListener("online", onDeviceOnline);
      options.network?.removeEventListener("offline", onDeviceOffline);
    },
  };
}
