import type { Database } from "../db/connection";
import { AnnouncedCache, type ChangeAnnouncements } from "../db/announced-cache";
import type { Session, User } from "../models";

export interface SignedIn {
  session: Session;
  user: User;
}

/**
 * Sessions and their users (with what decides their language), so a person's requests do not each read the database: kept until a
 * row of users or sessions changes anywhere (server/db/announced-cache.ts), 30 s at most, and
 * never past the session's expiry. Keyed by the cookie's value (which every request of that
 * session carries in memory anyway), so a hit needs no hashing.
 */
export class SessionCache extends AnnouncedCache<SignedIn> {
  constructor(db: Database, announcements: ChangeAnnouncements) {
    // clients: a contact's language follows their client's until they pick one (issue 29).
    super(db, announcements, {
      tables: ["users", "sessions", "clients"],
      ttlMs: 30_000,
      maxEntries: 10_000,
    });
  }

  /** Keeps what was read since `mark`, until the session expires at the latest. */
  keep(token: string, signedIn: SignedIn, now: number, mark: number): void {
    this.set(token, signedIn, now, mark, signedIn.session.expiresAt.getTime());
  }
}
