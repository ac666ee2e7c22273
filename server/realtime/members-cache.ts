import type { Members } from "./access";

export interface MembersCacheOptions {
  /** How long a conversation's members are trusted without asking the database again. */
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

/**
 * Who is in which conversation, kept briefly so that delivering an event costs no query.
 * A conversation's owner never changes; its client user changes only when the client joins
 * (the client's first socket drops the entry, see `forgetConversations`) or when the client
 * is deleted (the delete's disconnect message drops every entry of that user). The TTL bounds
 * whatever else might go stale. Unknown conversations are never cached.
 */
export class MembersCache {
  private readonly entries = new Map<string, { members: Members; expiresAt: number }>();
  private readonly loading = new Map<string, { epoch: number; promise: Promise<Members | null> }>();
  /** Bumped by every invalidation: a load that started before one does not fill the cache. */
  private epoch = 0;
  private readonly now: () => number;

  constructor(
    private readonly load: (clientId: string) => Promise<Members | null>,
    private readonly options: MembersCacheOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
  }

  get(clientId: string): Promise<Members | null> {
    const entry = this.entries.get(clientId);
    if (entry && entry.expiresAt > this.now()) return Promise.resolve(entry.members);
    if (entry) this.entries.delete(clientId);
    const pending = this.loading.get(clientId);
    if (pending && pending.epoch === this.epoch) return pending.promise;
    const epoch = this.epoch;
    const promise = this.load(clientId).then(
      (members) => {
        if (this.loading.get(clientId)?.promise === promise) this.loading.delete(clientId);
        if (members && epoch === this.epoch) this.store(clientId, members);
        return members;
      },
      (error: unknown) => {
        if (this.loading.get(clientId)?.promise === promise) this.loading.delete(clientId);
        throw error;
      },
    );
    this.loading.set(clientId, { epoch, promise });
    return promise;
  }

  /** Drops the conversations of these users (e.g. a deleted client's). */
  forgetUsers(userIds: Iterable<string>): void {
    const users = new Set(userIds);
    this.epoch += 1;
    for (const [clientId, { members }] of this.entries) {
      if (
        members.staffIds.some((id) => users.has(id)) ||
        members.clientUserIds.some((id) => users.has(id))
      ) {
        this.entries.delete(clientId);
      }
    }
  }

  /** Drops these conversations (e.g. when a client user connects, it may have just joined). */
  forgetConversations(clientIds: Iterable<string>): void {
    this.epoch += 1;
    for (const clientId of clientIds) this.entries.delete(clientId);
  }

  clear(): void {
    this.epoch += 1;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private store(clientId: string, members: Members): void {
    this.entries.delete(clientId);
    this.entries.set(clientId, { members, expiresAt: this.now() + this.options.ttlMs });
    // Oldest first: Map keeps insertion order.
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}
