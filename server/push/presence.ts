import { randomUUID } from "node:crypto";
import type { Services } from "../context";

/** How often each instance writes that its socket users are still there. */
export const PRESENCE_REFRESH_MS = 20_000;
/** A row older than this is an instance that stopped (crashed) without removing its rows. */
export const PRESENCE_STALE_MS = 60_000;

type PresenceServices = Pick<Services, "db" | "clock" | "logger">;

/**
 * Who has an open socket, across instances: each instance's socket server keeps one
 * socket_presence row per user it holds a socket for (written when the first socket opens,
 * refreshed every 20 s, removed when the last one closes or the instance stops). A user is
 * present while some instance's row is younger than 60 s; a push goes only to the absent.
 */
export class SocketPresence {
  readonly instanceId = randomUUID();
  /** Each user's writes in order (an open, then a close, then an open again). */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(private readonly services: PresenceServices) {}

  /**
   * The user's first socket on this instance is opening: present from now on. Resolves once
   * the row is written, or after `waitAtMostMs` (a slow database does not hold the upgrade;
   * the write goes on).
   */
  connected(userId: string, waitAtMostMs = 1_000): Promise<void> {
    const written = this.inOrder(userId, () => this.upsert([userId]));
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitAtMostMs);
      timer.unref();
    });
    return Promise.race([written, waited]).finally(() => clearTimeout(timer));
  }

  /** The user's last socket on this instance closed. */
  disconnected(userId: string): Promise<void> {
    return this.inOrder(userId, async () => {
      await this.services
        .db("socket_presence")
        .where({ instanceId: this.instanceId, userId })
        .delete();
    });
  }

  /** Every 20 s: the users this instance holds sockets for are still here; stale rows go. */
  async refresh(userIds: string[]): Promise<void> {
    try {
      for (let start = 0; start < userIds.length; start += 500)
        await this.upsert(userIds.slice(start, start + 500));
      const stale = new Date(this.services.clock.now().getTime() - 5 * PRESENCE_STALE_MS);
      await this.services.db("socket_presence").where("seenAt", "<", stale).delete();
    } catch (error) {
      this.services.logger.warn({ err: error }, "socket presence: refresh failed");
    }
  }

  /** This instance stops: its users are no longer present through it. */
  async close(): Promise<void> {
    await Promise.allSettled([...this.pending.values()]);
    await this.services.db("socket_presence").where("instanceId", this.instanceId).delete();
  }

  private async upsert(userIds: string[]): Promise<void> {
    if (userIds.length === 0) return;
    const seenAt = this.services.clock.now();
    await this.services
      .db("socket_presence")
      .insert(userIds.map((userId) => ({ instanceId: this.instanceId, userId, seenAt })))
      .onConflict(["instanceId", "userId"])
      .merge(["seenAt"]);
  }

  private inOrder(userId: string, write: () => Promise<void>): Promise<void> {
    const next = (this.pending.get(userId) ?? Promise.resolve()).then(write).catch((error) => {
      this.services.logger.warn({ err: error, userId }, "socket presence: write failed");
    });
    this.pending.set(userId, next);
    void next.then(() => {
      if (this.pending.get(userId) === next) this.pending.delete(userId);
    });
    return next;
  }
}

/** The users among `userIds` with an open socket on some instance (a row younger than 60 s). */
export async function usersWithOpenSocket(
  services: Pick<Services, "db" | "clock">,
  userIds: string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const since = new Date(services.clock.now().getTime() - PRESENCE_STALE_MS);
  const rows: { userId: string }[] = await services
    .db("socket_presence")
    .distinct("userId")
    .whereIn("userId", userIds)
    .where("seenAt", ">", since);
  return new Set(rows.map((row) => row.userId));
}
