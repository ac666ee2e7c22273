import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { Clock } from "../clock";
import type { Database } from "../db/connection";
import type { Logger } from "../logger";
import type { DomainEvent, EventListener, RecordedEvent } from "./events";

/** The instance that wrote an event runs it at once; the job takes over a row this old. */
export const TAKE_OVER_AFTER_MS = 30_000;
/** An attempt by the job holds its row this long; if that instance dies, any other retries. */
export const LEASE_MS = 5 * 60_000;
/** Waits before the job's 2nd, 3rd... attempt. */
export const RETRY_DELAYS_MS = [10_000, 30_000, 60_000, 5 * 60_000, 15 * 60_000] as const;
/** After this many failed attempts an event is given up: logged as an error and deleted. */
export const MAX_ATTEMPTS = 8;
const BATCH_SIZE = 50;
/** Finished rows are deleted together after this pause: one statement for many sends. */
const FORGET_AFTER_MS = 100;

/** The row's columns as a statement writes them (appendMessage inserts it in its own SQL). */
export interface EventRow {
  id: string;
  queue: string;
  type: DomainEvent["type"];
  nextAttemptAt: Date;
  createdAt: Date;
}

interface DomainEventsDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Which rows this instance's job runs: "" in production; tests give each app its own. */
  queue?: string;
}

/**
 * Domain events through a transactional outbox (Outline's events and processors, Chatwoot's
 * listeners). A command records what happened with `record(trx, event)` in the transaction of
 * the change, so the event exists exactly when the change does, and once committed hands it to
 * `dispatch`, which runs every listener (realtime, push, metrics: app.ts passes them in) and
 * then deletes the row. A row whose instance died before that (or whose listener failed) is run
 * by the `domain-events` job on any instance, claimed FOR UPDATE SKIP LOCKED with a lease: at
 * least once, never lost, so every listener is written to be safe to run twice.
 *
 * `Services` is what listeners are given (context.ts names it): a type parameter, so that this
 * service does not import the services' declaration that names it back.
 */
export class DomainEvents<Services = unknown> {
  private listeners: readonly EventListener<Services>[] = [];
  private services: Services | null = null;
  /** Rows whose listeners all ran: deleted together, a statement for many sends. */
  private readonly done: string[] = [];
  private forgetTimer: NodeJS.Timeout | null = null;
  private deleting: Promise<void> | null = null;
  /** Dispatches under way (idle() waits for them). */
  private readonly running = new Set<Promise<void>>();
  /**
   * Events this instance dispatched whose rows are not deleted yet (running, or ran and waiting
   * for their DELETE): its job leaves them alone even once they are due, so an overloaded
   * instance, whose dispatch or delete takes longer than TAKE_OVER_AFTER_MS, does not run its
   * own events a second time (adding load when it has the least to spare).
   */
  private readonly dispatching = new Set<string>();
  readonly queue: string;

  constructor(private readonly deps: DomainEventsDeps) {
    this.queue = deps.queue ?? "";
  }

  /** The listeners and what they are given (app.ts, once the services exist). */
  listen(services: Services, listeners: readonly EventListener<Services>[]): void {
    this.services = services;
    this.listeners = listeners;
  }

  /** A new row's columns, for a statement that inserts the event itself. */
  row(type: DomainEvent["type"]): EventRow {
    const now = this.deps.clock.now();
    return {
      id: randomUUID(),
      queue: this.queue,
      type,
      nextAttemptAt: new Date(now.getTime() + TAKE_OVER_AFTER_MS),
      createdAt: now,
    };
  }

  /** Writes `event` through `db` (the change's transaction); dispatch it once that commits. */
  async record<E extends DomainEvent>(
    db: Knex | Knex.Transaction,
    event: E,
    loaded?: Record<string, unknown>,
  ): Promise<RecordedEvent<E>> {
    const { type, ...payload } = event;
    const row = this.row(type);
    await db("events").insert({ ...row, payload: JSON.stringify(payload) });
    return { id: row.id, event, loaded };
  }

  /**
   * After commit: starts the listeners of each event and returns without waiting for them (the
   * answer does not wait for a NOTIFY or a push; idle() does). Events are handed over in the
   * order of the calls, and each listener's first step runs before this returns, so the
   * realtime hub queues them in commit order. An event all listeners took is forgotten (its row
   * deleted); one that failed stays for the job to retry.
   */
  dispatch(recorded: RecordedEvent | readonly RecordedEvent[]): void {
    for (const one of Array.isArray(recorded) ? recorded : [recorded as RecordedEvent]) {
      this.dispatching.add(one.id);
      const run = this.runListeners(one).then((error) => {
        if (error) {
          this.dispatching.delete(one.id);
          this.deps.logger.warn(
            { err: error, eventId: one.id, type: one.event.type },
            "domain event: a listener failed; the job retries it",
          );
        } else {
          this.done.push(one.id);
          this.forgetSoon();
        }
      });
      this.running.add(run);
      void run.finally(() => this.running.delete(run));
    }
  }

  /** The job's pass: runs the rows due on this queue (left over, or to retry). */
  async dispatchDue(): Promise<{ ran: number; failed: number }> {
    let ran = 0;
    let failed = 0;
    for (;;) {
      const claimed = await this.claimDue();
      for (const row of claimed) {
        // Dispatched here since the claim's query was built (it may have waited for a
        // connection): the dispatch deletes it, or leaves it to a later pass if it fails.
        if (this.dispatching.has(row.id)) continue;
        const recorded: RecordedEvent = {
          id: row.id,
          event: { ...row.payload, type: row.type } as DomainEvent,
        };
        const error = await this.runListeners(recorded);
        if (!error) {
          ran += 1;
          await this.deps.db("events").where("id", row.id).delete();
        } else {
          failed += 1;
          await this.retryLater(row, error);
        }
      }
      if (claimed.length < BATCH_SIZE) return { ran, failed };
    }
  }

  /** Resolves once the dispatches under way ended and their rows are deleted (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.deleting || this.done.length > 0) {
      await Promise.all(this.running);
      this.forgetNow();
      await this.deleting;
    }
  }

  private async runListeners(recorded: RecordedEvent): Promise<unknown> {
    const services = this.services;
    if (!services) return new Error("domain events: no listeners yet (app not built)");
    for (const listener of this.listeners) {
      if (!listener.handles.includes(recorded.event.type)) continue;
      try {
        await listener.handle(services, recorded);
      } catch (error) {
        return Object.assign(error instanceof Error ? error : new Error(String(error)), {
          listener: listener.name,
        });
      }
    }
    return null;
  }

  private async claimDue(): Promise<ClaimedEvent[]> {
    const now = this.deps.clock.now();
    return await this.deps.db.transaction(async (trx) => {
      const query = trx("events")
        .select("id", "type", "payload", "attempts")
        .where("queue", this.queue)
        .where("nextAttemptAt", "<=", now);
      if (this.dispatching.size > 0) {
        query.whereRaw("not (id = any(?::uuid[]))", [[...this.dispatching]]);
      }
      const rows: ClaimedEvent[] = await query
        .orderBy("nextAttemptAt")
        .limit(BATCH_SIZE)
        .forUpdate()
        .skipLocked();
      if (rows.length === 0) return rows;
      await trx("events")
        .whereIn(
          "id",
          rows.map((row) => row.id),
        )
        .update({
          nextAttemptAt: new Date(now.getTime() + LEASE_MS),
          attempts: trx.raw("attempts + 1"),
        });
      return rows.map((row) => ({
        ...row,
        attempts: row.attempts + 1,
        payload: typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload,
      }));
    });
  }

  private async retryLater(row: ClaimedEvent, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    if (row.attempts >= MAX_ATTEMPTS) {
      this.deps.logger.error(
        { err: error, eventId: row.id, type: row.type, attempts: row.attempts },
        "domain event given up",
      );
      await this.deps.db("events").where("id", row.id).delete();
      return;
    }
    const wait =
      RETRY_DELAYS_MS[Math.min(row.attempts - 1, RETRY_DELAYS_MS.length - 1)] ?? LEASE_MS;
    await this.deps
      .db("events")
      .where("id", row.id)
      .update({
        nextAttemptAt: new Date(this.deps.clock.now().getTime() + wait),
        lastError: message.slice(0, 500),
      });
  }

  private forgetSoon(): void {
    if (this.forgetTimer || this.deleting) return;
    this.forgetTimer = setTimeout(() => this.forgetNow(), FORGET_AFTER_MS);
    this.forgetTimer.unref();
  }

  /** One DELETE at a time; ids that finish meanwhile go in the next. */
  private forgetNow(): void {
    if (this.forgetTimer) clearTimeout(this.forgetTimer);
    this.forgetTimer = null;
    if (this.deleting || this.done.length === 0) return;
    const ids = this.done.splice(0, this.done.length);
    this.deleting = this.deps
      .db("events")
      .whereIn("id", ids)
      .delete()
      .then(
        () => {
          for (const id of ids) this.dispatching.delete(id);
        },
        (error: unknown) => {
          for (const id of ids) this.dispatching.delete(id);
          // The rows stay: the job runs them again later (listeners are safe to repeat).
          this.deps.logger.warn({ err: error, events: ids.length }, "domain events: delete failed");
        },
      )
      .finally(() => {
        this.deleting = null;
        if (this.done.length > 0) this.forgetSoon();
      });
  }
}

interface ClaimedEvent {
  id: string;
  type: DomainEvent["type"];
  payload: Record<string, unknown>;
  attempts: number;
}
