import type { Database } from "./connection";
import { AnnouncedCache, type ChangeAnnouncements } from "./announced-cache";

/**
 * The rows of clients as findClient read them, so that a conversation's requests (every message
 * send among them) do not each read the row again: kept until a row of clients changes anywhere
 * (server/db/announced-cache.ts), 30 s at most. Rows, not models: each caller gets a Client of
 * its own to keep or change.
 */
export class ClientCache extends AnnouncedCache<Record<string, unknown>> {
  constructor(db: Database, announcements: ChangeAnnouncements) {
    super(db, announcements, {
      tables: ["clients", "client_assignees"],
      ttlMs: 30_000,
      maxEntries: 20_000,
    });
  }
}
