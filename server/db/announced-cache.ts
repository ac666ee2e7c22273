import type { HubMessage } from "../realtime/hub";
import type { Database } from "./connection";

/** What a cache needs of the realtime hub: the database's announcements, and whether they arrive. */
export interface ChangeAnnouncements {
  readonly listening: boolean;
  subscribe(listener: (message: HubMessage) => void): () => void;
}

export interface AnnouncedCacheOptions {
  /** The tables the cached values are read from (each announced: server/db/cached-rows.ts). */
  tables: readonly string[];
  /** How long an entry is trusted at most. */
  ttlMs: number;
  maxEntries: number;
}

interface Entry<V> {
  value: V;
  cachedUntil: number;
}

interface QueryEvent {
  sql?: string;
  __knexTxId?: string;
}

const TRANSACTION_END = /^\s*(?:commit|rollback)\b/i;

/**
 * Values read from a few tables, kept until a row of those tables changes anywhere. It is
 * emptied:
 * - by this instance's own writes to them, whichever way they were made: it hears every
 *   statement of its database handle (knex's query events) and empties itself before and
 *   after such a statement runs, and again when its transaction commits;
 * - by every instance's, as they commit: the database announces them (a trigger's NOTIFY,
 *   server/db/cached-rows.ts) and the hub passes that on as `rows_changed`;
 * - when the hub reconnects (`resync`: announcements may have been missed).
 * While the hub is not listening it serves and keeps nothing; `ttlMs` bounds an announcement
 * lost while the LISTEN connection still looked alive.
 */
export class AnnouncedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Transactions that wrote a cached table: their commit empties the cache again. */
  private readonly writing = new Set<string>();
  /** Moves on every clear: a read that began before one is not kept (it may be stale). */
  private clears = 0;
  private readonly writesCachedTable: RegExp;

  constructor(
    db: Database,
    private readonly announcements: ChangeAnnouncements,
    private readonly options: AnnouncedCacheOptions,
  ) {
    // A statement that changes or removes rows, wherever it stands (a CTE's update included);
    // an insert only adds a row nobody has cached, and reads leave the cache alone.
    this.writesCachedTable = new RegExp(
      `\\b(?:update(?:\\s+only)?|delete\\s+from(?:\\s+only)?|truncate(?:\\s+table)?(?:\\s+only)?|merge\\s+into)\\s+"?(?:${options.tables.join("|")})"?(?![\\w$])`,
      "i",
    );
    db.on("query", this.heard);
    db.on("query-response", (_response: unknown, query: QueryEvent) => this.heard(query));
    announcements.subscribe((message) => {
      if (message.kind === "resync") this.clear();
      else if (message.kind === "rows_changed" && options.tables.includes(message.table)) {
        this.clear();
      }
    });
  }

  get(key: string, now: number): V | undefined {
    if (!this.announcements.listening) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.cachedUntil <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** A mark to pass to set() for what is read from now on. */
  get mark(): number {
    return this.clears;
  }

  /**
   * Keeps what was read since `mark` (until `notAfter` at the latest), unless the cache was
   * emptied meanwhile.
   */
  set(key: string, value: V, now: number, mark: number, notAfter = Number.POSITIVE_INFINITY): void {
    if (mark !== this.clears || !this.announcements.listening) return;
    if (this.entries.size >= this.options.maxEntries) this.entries.clear();
    this.entries.set(key, { value, cachedUntil: Math.min(now + this.options.ttlMs, notAfter) });
  }

  clear(): void {
    this.clears += 1;
    this.entries.clear();
  }

  private readonly heard = (query: QueryEvent): void => {
    const sql = query.sql;
    if (!sql) return;
    const transaction = query.__knexTxId;
    if (transaction && TRANSACTION_END.test(sql)) {
      if (this.writing.delete(transaction)) this.clear();
      return;
    }
    if (!this.writesCachedTable.test(sql)) return;
    this.clear();
    if (transaction) this.writing.add(transaction);
  };
}
