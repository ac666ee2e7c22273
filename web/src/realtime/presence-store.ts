/**
 * Presence on the staff's side (issue 26): what this page says about itself (the one
 * conversation it shows, viewing or typing) and what the server says about colleagues, per
 * conversation. Free of React, so that it is tested in node; one per page, as the socket is.
 *
 * The server forgets a socket's presence when it closes, and the lists it sent describe that
 * socket's time: each new socket starts with empty lists and is told this page's state again.
 */
import { PRESENCE_TYPING_EVERY_MS } from "../../../shared/presence-timing";
import type {
  PresenceFrame,
  PresenceState,
  PresentPerson,
} from "../../../shared/realtime-presence";
import type { PresenceEvent } from "../../../shared/realtime-events";

const NOBODY: readonly PresentPerson[] = Object.freeze([]);

export class PresenceStore {
  private readonly lists = new Map<string, readonly PresentPerson[]>();
  private readonly listeners = new Set<() => void>();
  private send: ((data: string) => boolean) | null = null;
  /** This page's own presence: one conversation at most. */
  private current: { clientId: string; state: Exclude<PresenceState, "idle"> } | null = null;
  private typingSentAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** A socket opened: frames go through `send`, and it hears this page's state. */
  connected(send: (data: string) => boolean): void {
    this.send = send;
    this.clear();
    if (this.current) this.transmit(this.current.clientId, this.current.state);
  }

  /** The socket closed: what it was told is no longer known to be true. */
  disconnected(): void {
    this.send = null;
    this.clear();
  }

  /** A presence event from the server. */
  receive(event: PresenceEvent): void {
    this.lists.set(event.clientId, event.people.length ? event.people : NOBODY);
    this.notify();
  }

  /** The colleagues in a conversation (the same array until it changes). */
  people(clientId: string): readonly PresentPerson[] {
    return this.lists.get(clientId) ?? NOBODY;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * This page is viewing or typing in `clientId`, or left it (idle). Repeats are not sent;
   * `typing` at most every PRESENCE_TYPING_EVERY_MS while it goes on.
   */
  report(clientId: string, state: PresenceState): void {
    const current = this.current;
    if (state === "idle") {
      if (current?.clientId !== clientId) return;
      this.current = null;
      this.transmit(clientId, "idle");
      return;
    }
    const same = current?.clientId === clientId && current.state === state;
    if (state === "viewing" && same) return;
    if (state === "typing" && same && this.now() - this.typingSentAt < PRESENCE_TYPING_EVERY_MS)
      return;
    this.current = { clientId, state };
    this.transmit(clientId, state);
  }

  private transmit(clientId: string, state: PresenceState): void {
    if (state === "typing") this.typingSentAt = this.now();
    else this.typingSentAt = Number.NEGATIVE_INFINITY;
    const frame: PresenceFrame = { type: "presence", clientId, state };
    this.send?.(JSON.stringify(frame));
  }

  private clear(): void {
    if (this.lists.size === 0) return;
    this.lists.clear();
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

/** The page's one store: the owner app's socket feeds it, its conversation reads it. */
export const presenceStore = new PresenceStore();
