import { randomUUID } from "node:crypto";
import type { Clock } from "../clock";
import type { Database } from "../db/connection";
import type { Logger } from "../logger";

/** How often each instance writes that it is still there. */
export const PRESENCE_REFRESH_MS = 20_000;
/** An instance not seen for this long stopped (crashed): its users count as away. */
export const PRESENCE_STALE_MS = 60_000;
/** A stopped instance's rows are removed this long after it was last seen. */
const INSTANCE_FORGOTTEN_MS = 5 * PRESENCE_STALE_MS;

/** What presence needs (its own list: services hold a SocketPresence, server/context.ts). */
interface PresenceServices {
  db: Database;
  clock: Clock;
  logger: Logger;
}

/**
 * Who has an open socket, across instances. Each instance's socket server keeps one
 * socket_presence row per user it holds a socket for, written when the user's first socket
 * opens there and removed when the last one closes or the instance stops, and one
 * socket_instances row that it refreshes every 20 s: the cost of staying present does not grow
 * with the number of sockets. A user is present while some instance holding their row was seen
 * within 60 s; a push goes only to the absent.
 */
export class SocketPresence {
  readonly instanceId = randomUUID();
  /** Each user's writes in order (an open, then a close, then an open again). */
  private readonly pending = new Map<string, Promise<void>>();
  /** This instance's row, written before any user's (a user row alone counts for nothing). */
  private registered: Promise<void> | null = null;
  /** The users with a socket on this instance: present, with nothing to ask the database. */
  private readonly here = new Set<string>();

  constructor(private readonly services: PresenceServices) {}

  /**
   * The user's first socket on this instance is opening: present from now on. Resolves once
   * the row is written, or after `waitAtMostMs` (a slow database does not hold the upgrade;
   * the write goes on).
   */
  connected(userId: string, waitAtMostMs = 1_000): Promise<void> {
    this.here.add(userId);
    const written = this.inOrder(userId, async () => {
      await this.register();
      await this.services
        .db("socket_presence")
        .insert({ instanceId: this.instanceId, userId, seenAt: this.services.clock.now() })
        .onConflict(["instanceId", "userId"])
        .ignore();
    });
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitAtMostMs);
      timer.unref();
    });
    return Promise.race([written, waited]).finally(() => clearTimeout(timer));
  }

  /** The user's last socket on this instance closed. */
  disconnected(userId: string): Promise<void> {
    this.here.delete(userId);
    return this.inOrder(userId, async () => {
      await this.services
        .db("socket_presence")
        .where({ instanceId: this.instanceId, userId })
        .delete();
    });
  }

  /** Every 20 s: this instance is still here; instances gone for five minutes are removed. */
  async refresh(): Promise<void> {
    try {
      await this.touch();
      const forgotten = new Date(this.services.clock.now().getTime() - INSTANCE_FORGOTTEN_MS);
      const gone = this.services.db("socket_instances").where("seenAt", "<", forgotten);
      await this.services
        .db("socket_presence")
        .whereIn("instanceId", gone.clone().select("id"))
        .delete();
      await gone.delete();
    } catch (error) {
      this.services.logger.warn({ err: error }, "socket presence: refresh failed");
    }
  }

  /** `userId` has a socket open on this instance. */
  isHere(userId: string): boolean {
    return this.here.has(userId);
  }

  /** This instance stops: its users are no longer present through it. */
  async close(): Promise<void> {
    this.here.clear();
    await Promise.allSettled([...this.pending.values()]);
    await this.services.db("socket_presence").where("instanceId", this.instanceId).delete();
    await this.services.db("socket_instances").where("id", this.instanceId).delete();
  }

  private register(): Promise<void> {
    this.registered ??= this.touch().catch((error) => {
      this.registered = null; // written again by the next user's socket
      throw error;
    });
    return this.registered;
  }

  private async touch(): Promise<void> {
    await this.services
      .db("socket_instances")
      .insert({ id: this.instanceId, seenAt: this.services.clock.now() })
      .onConflict("id")
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

/** The users among `userIds` with an open socket on some instance seen within 60 s. */
export async function usersWithOpenSocket(
  services: Pick<PresenceServices, "db" | "clock">,
  userIds: string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const since = new Date(services.clock.now().getTime() - PRESENCE_STALE_MS);
  const rows: { userId: string }[] = await services
    .db("socket_presence")
    .join("socket_instances", "socket_instances.id", "socket_presence.instanceId")
    .distinct("socket_presence.userId")
    .whereIn("socket_presence.userId", userIds)
    .where("socket_instances.seenAt", ">", since);
  return new Set(rows.map((row) => row.userId));
}
