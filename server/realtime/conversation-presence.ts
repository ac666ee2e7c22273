import type { PersonPresenceState, PresentPerson } from "../../shared/realtime-presence";
import { PRESENCE_MAX_PEOPLE } from "../../shared/realtime-presence";
import type { PresenceAnnouncement } from "./hub";

export interface PresenceTimings {
  /** How often an instance announces its sockets' presence again (the others' entries live on). */
  heartbeatMs: number;
  /** An entry not announced again for this long is dropped (its instance died). */
  expiryMs: number;
  /**
   * Typing turns back to viewing this long after the last `typing` heard: the browser says
   * `viewing` 6 s after the last keystroke, and this covers a browser that could not.
   */
  typingMs: number;
}

export const DEFAULT_PRESENCE_TIMINGS: PresenceTimings = {
  heartbeatMs: 20_000,
  expiryMs: 45_000,
  typingMs: 8_000,
};

interface Entry {
  userId: string;
  name: string;
  picture: string | null;
  state: PersonPresenceState;
  expiresAt: number;
  typingEnds?: NodeJS.Timeout;
}

interface LocalReport extends PresenceAnnouncement {
  /** When it was last announced (a stale `typing` is not announced again). */
  at: number;
}

export interface ConversationPresenceDeps {
  /** Sends an announcement to every instance through the hub (this one included). */
  announce: (announcement: PresenceAnnouncement) => Promise<void>;
  /** The list of people in `clientId` changed: tell this instance's staff sockets. */
  changed: (clientId: string, people: PresentPerson[]) => void;
  now: () => number;
  onError: (error: unknown) => void;
  timings?: Partial<PresenceTimings>;
}

/**
 * Who is in which conversation (issue 26, presence), as one instance knows it: every
 * instance hears every announcement through the hub and keeps the same table, so each can tell
 * its own sockets. Kept in memory only: presence is worth nothing after a restart, and entries
 * of an instance that died expire (`expiryMs`) since it stops announcing them.
 */
export class ConversationPresence {
  private readonly timings: PresenceTimings;
  /** Conversation -> socket (connectionId) -> entry. */
  private readonly byClient = new Map<string, Map<string, Entry>>();
  /** The last list told per conversation (JSON): an unchanged list is not sent again. */
  private readonly told = new Map<string, string>();
  /** What this instance's sockets are doing: one conversation per socket. */
  private readonly local = new Map<string, LocalReport>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly deps: ConversationPresenceDeps) {
    this.timings = { ...DEFAULT_PRESENCE_TIMINGS, ...deps.timings };
    this.heartbeat = setInterval(() => this.tick(), this.timings.heartbeatMs);
    this.heartbeat.unref();
  }

  /**
   * A local socket's frame, already checked (a staff member who has the client). Opening
   * another conversation leaves the previous one; a repeated `viewing` says nothing new.
   */
  report(announcement: PresenceAnnouncement): void {
    const previous = this.local.get(announcement.connectionId);
    const elsewhere = previous && previous.clientId !== announcement.clientId;
    if (elsewhere) this.announce({ ...previous, state: "idle" });
    if (announcement.state === "idle") {
      if (!previous || elsewhere) return;
      this.local.delete(announcement.connectionId);
    } else {
      this.local.set(announcement.connectionId, { ...announcement, at: this.deps.now() });
      if (!elsewhere && previous?.state === "viewing" && announcement.state === "viewing") return;
    }
    this.announce(announcement);
  }

  /** The conversation a local socket is in, if any. */
  conversationOf(connectionId: string): string | null {
    return this.local.get(connectionId)?.clientId ?? null;
  }

  /** A local socket closed (or lost the client): it leaves its conversation. */
  left(connectionId: string): void {
    const previous = this.local.get(connectionId);
    if (!previous) return;
    this.local.delete(connectionId);
    this.announce({ ...previous, state: "idle" });
  }

  /** An announcement from the hub, from any instance (this one's own included). */
  receive(announcement: PresenceAnnouncement): void {
    const { clientId, connectionId } = announcement;
    let entries = this.byClient.get(clientId);
    if (announcement.state === "idle") {
      const entry = entries?.get(connectionId);
      if (!entries || !entry) return;
      clearTimeout(entry.typingEnds);
      entries.delete(connectionId);
      if (entries.size === 0) this.byClient.delete(clientId);
      this.update(clientId);
      return;
    }
    if (!entries) {
      entries = new Map();
      this.byClient.set(clientId, entries);
    }
    const known = entries.get(connectionId);
    clearTimeout(known?.typingEnds);
    const entry: Entry = {
      userId: announcement.userId,
      name: announcement.name,
      picture: announcement.picture,
      state: announcement.state,
      expiresAt: this.deps.now() + this.timings.expiryMs,
    };
    if (entry.state === "typing") {
      entry.typingEnds = setTimeout(() => {
        if (this.byClient.get(clientId)?.get(connectionId) !== entry) return;
        entry.state = "viewing";
        entry.typingEnds = undefined;
        this.update(clientId);
      }, this.timings.typingMs);
      entry.typingEnds.unref();
    }
    entries.set(connectionId, entry);
    this.update(clientId);
    // Someone this instance did not know of: their instance may not know this one's people
    // either (it started meanwhile), so they are told now rather than at the next heartbeat.
    if (!known && !this.local.has(connectionId)) {
      for (const report of this.local.values()) {
        if (report.clientId === clientId) this.announce(report);
      }
    }
  }

  /** The people in a conversation, one row per person (typing wins over viewing), by name. */
  people(clientId: string): PresentPerson[] {
    const byUser = new Map<string, PresentPerson>();
    for (const entry of this.byClient.get(clientId)?.values() ?? []) {
      const known = byUser.get(entry.userId);
      if (known && (known.state === "typing" || entry.state === "viewing")) continue;
      byUser.set(entry.userId, {
        userId: entry.userId,
        name: entry.name,
        picture: entry.picture,
        state: entry.state,
      });
    }
    return [...byUser.values()]
      .sort((a, b) => a.name.localeCompare(b.name) || a.userId.localeCompare(b.userId))
      .slice(0, PRESENCE_MAX_PEOPLE);
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const entries of this.byClient.values()) {
      for (const entry of entries.values()) clearTimeout(entry.typingEnds);
    }
    this.byClient.clear();
    this.local.clear();
  }

  private update(clientId: string): void {
    const people = this.people(clientId);
    const text = JSON.stringify(people);
    if ((this.told.get(clientId) ?? "[]") === text) return;
    if (people.length === 0) this.told.delete(clientId);
    else this.told.set(clientId, text);
    this.deps.changed(clientId, people);
  }

  /** Announces this instance's sockets again and drops what nobody announced in time. */
  private tick(): void {
    const now = this.deps.now();
    for (const report of this.local.values()) {
      // A typing browser that went quiet without saying so is viewing by now.
      if (report.state === "typing" && now - report.at > this.timings.typingMs) {
        report.state = "viewing";
      }
      this.announce(report);
    }
    for (const [clientId, entries] of this.byClient) {
      let dropped = false;
      for (const [connectionId, entry] of entries) {
        if (entry.expiresAt > now) continue;
        clearTimeout(entry.typingEnds);
        entries.delete(connectionId);
        dropped = true;
      }
      if (entries.size === 0) this.byClient.delete(clientId);
      if (dropped) this.update(clientId);
    }
  }

  private announce(report: PresenceAnnouncement): void {
    const { clientId, connectionId, userId, name, picture, state } = report;
    this.deps
      .announce({ clientId, connectionId, userId, name, picture, state })
      .catch(this.deps.onError);
  }
}
