import type { RealtimeEvent } from "../../shared/realtime";
import type { PresenceState } from "../../shared/realtime-presence";
import type { Role } from "../../shared/schemas/user";
import type { MessageViews, RealtimePublisher } from "./events";

export type HubMessage =
  /** `sides`: the sides of the conversation that hear of it (both when absent). */
  | { kind: "event"; event: RealtimeEvent; views?: MessageViews; sides?: Role[] }
  | { kind: "disconnect"; userIds: string[] }
  /** Who has a conversation changed: members looked up afresh, these users told. */
  | { kind: "access_changed"; clientId: string; userIds: string[] }
  /** A workspace's team changed (issue 26): these staff users' sockets hear team_changed. */
  | { kind: "team_changed"; userIds: string[] }
  /**
   * An ended session: its sockets close at once, or `afterMs` later (sessions are named by
   * their hash).
   */
  | { kind: "session_ended"; sessionHash: string; afterMs?: number }
  /** A staff member's socket is viewing, typing in or has left a conversation (issue 26). */
  | ({ kind: "presence" } & PresenceAnnouncement)
  /**
   * Local only, never transmitted: this instance may have missed messages (its cross-instance
   * link was down), so its sockets should reconnect and catch up.
   */
  | { kind: "resync" }
  /**
   * Local only: rows of `table`, which instances cache, changed somewhere, as the database
   * announced (server/db/cached-rows.ts); the caches reading that table forget what they hold.
   */
  | { kind: "rows_changed"; table: string };

/**
 * What one socket is doing in one conversation, as every instance hears it. `connectionId`
 * names the socket (random); its user's name and picture travel along, so that no instance
 * reads them again.
 */
export interface PresenceAnnouncement {
  clientId: string;
  connectionId: string;
  userId: string;
  name: string;
  picture: string | null;
  state: PresenceState;
}

type Listener = (message: HubMessage) => void;

/**
 * In-process fan-out: what is published reaches every subscriber of this instance (the
 * websocket server). A transport between instances (Postgres LISTEN/NOTIFY) plugs in by
 * overriding `transmit` and calling `receive` for what arrives.
 */
export class RealtimeHub implements RealtimePublisher {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Whether what is published (and what the database announces) reaches this instance now. In
   * process, always; a cache that trusts announcements serves nothing while it is false.
   */
  get listening(): boolean {
    return true;
  }

  /** Resolves once the hub delivers (a transport has connected); nothing to wait for here. */
  async start(): Promise<void> {}

  async publish(
    event: RealtimeEvent,
    views?: MessageViews,
    sides?: readonly Role[],
  ): Promise<void> {
    await this.transmit({
      kind: "event",
      event,
      ...(views && { views }),
      ...(sides && { sides: [...sides] }),
    });
  }

  async accessChanged(clientId: string, userIds: string[]): Promise<void> {
    await this.transmit({ kind: "access_changed", clientId, userIds });
  }

  async teamChanged(userIds: string[]): Promise<void> {
    if (userIds.length) await this.transmit({ kind: "team_changed", userIds });
  }

  async disconnectUsers(userIds: string[]): Promise<void> {
    if (userIds.length) await this.transmit({ kind: "disconnect", userIds });
  }

  async endSession(sessionHash: string, afterMs?: number): Promise<void> {
    await this.transmit(
      afterMs
        ? { kind: "session_ended", sessionHash, afterMs }
        : { kind: "session_ended", sessionHash },
    );
  }

  /** Tells every instance (this one included) what a socket is doing in a conversation. */
  async announcePresence(announcement: PresenceAnnouncement): Promise<void> {
    await this.transmit({ kind: "presence", ...announcement });
  }

  protected async transmit(message: HubMessage): Promise<void> {
    this.receive(message);
  }

  protected receive(message: HubMessage): void {
    for (const listener of this.listeners) listener(message);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
