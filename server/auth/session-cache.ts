import type { Knex } from "knex";
import type { Session, User } from "../models";
import { onSessionDataChanged } from "../models/session-data-changes";

interface Entry {
  user: User;
  session: Session;
  cachedUntil: number;
}

const TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

/**
 * Remembers a session and its user for two seconds, so a busy client's requests do not each
 * read the database. Any write to users or sessions through the models empties every cache of
 * this process at once (and again when its transaction commits); another instance on the same
 * PostgreSQL sees such a change within the two seconds. Keyed by the cookie's value (which
 * every request of that session carries in memory anyway), so a hit needs no hashing.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly unsubscribe = onSessionDataChanged((transaction) => this.changed(transaction));

  get(token: string, now: number): Entry | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.cachedUntil <= now || entry.session.expiresAt.getTime() <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return entry;
  }

  set(token: string, user: User, session: Session, now: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(token, { user, session, cachedUntil: now + TTL_MS });
  }

  clear(): void {
    this.entries.clear();
  }

  dispose(): void {
    this.entries.clear();
    this.unsubscribe();
  }

  /** After any write to users or sessions (the models' hooks). */
  private changed(transaction?: Knex | Knex.Transaction): void {
    this.clear();
    const pending = (transaction as { executionPromise?: Promise<unknown> } | undefined)?.executionPromise;
    // A request may cache the old row between the write and the commit: clear again after it.
    pending?.then(
      () => this.clear(),
      () => undefined,
    );
  }
}
