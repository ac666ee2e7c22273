import type { Database } from "../db/connection";
import type { Session, User } from "../models";

export interface SignedIn {
  session: Session;
  user: User;
}

interface Entry extends SignedIn {
  cachedUntil: number;
}

const TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;
/**
 * A statement that changes or removes rows of users or sessions, wherever it stands (a CTE's
 * update included); an insert only adds a row nobody has cached. Statements that merely read
 * those tables (a message send joins users) leave the cache alone.
 */
const WRITES_CACHED_TABLE =
  /\b(?:update(?:\s+only)?|delete\s+from(?:\s+only)?|truncate(?:\s+table)?(?:\s+only)?|merge\s+into)\s+"?(?:users|sessions)"?(?![\w$])/i;
const TRANSACTION_END = /^\s*(?:commit|rollback)\b/i;

interface QueryEvent {
  sql?: string;
  __knexTxId?: string;
}

/**
 * Remembers a session and its user for two seconds, so a busy client's requests do not each
 * read the database. Belongs to one SessionStore, and hears every statement of its database
 * handle (knex's query events): a write to users or sessions, whichever way it was made,
 * empties it, before and after it runs, and again when its transaction commits. Another
 * instance on the same PostgreSQL sees such a change within the two seconds. Keyed by the
 * cookie's value (which every request of that session carries in memory anyway), so a hit
 * needs no hashing.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Transactions that wrote users or sessions: their commit empties the cache again. */
  private readonly writing = new Set<string>();
  /** Moves on every clear: a read that began before one is not cached (it may be stale). */
  private clears = 0;

  constructor(db: Database) {
    db.on("query", this.heard);
    db.on("query-response", (_response: unknown, query: QueryEvent) => this.heard(query));
  }

  get(token: string, now: number): SignedIn | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.cachedUntil <= now || entry.session.expiresAt.getTime() <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return entry;
  }

  /** A mark to pass to set() for what is read from now on. */
  get mark(): number {
    return this.clears;
  }

  /** Caches what was read since `mark`, unless the cache was emptied meanwhile. */
  set(token: string, signedIn: SignedIn, now: number, mark: number): void {
    if (mark !== this.clears) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(token, { ...signedIn, cachedUntil: now + TTL_MS });
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
    if (!WRITES_CACHED_TABLE.test(sql)) return;
    this.clear();
    if (transaction) this.writing.add(transaction);
  };
}
