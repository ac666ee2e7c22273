import type { Knex } from "knex";
import type { Clock } from "../clock";
import { forEachLimited } from "../concurrency/for-each-limited";
import type { Database } from "../db/connection";
import type { Logger } from "../logger";
import type { MailMessage } from "./mail-message";
import type { Mailer } from "./mailer";

/** What a mail is, for logs and the outbox's rows; never its recipient's data. */
export type MailKind =
  | "verification"
  | "already-registered"
  | "password-reset"
  | "invite"
  | "team-invite"
  | "client-sign-in-link"
  | "unanswered-messages"
  | "due-reminder"
  | "export-ready"
  | "account-deleted"
  | "payment-failed"
  | "payment-reminder"
  | "payment-received";

const MINUTE = 60_000;
/** Waits before the 2nd, 3rd... attempt; the last one repeats until the mail is a day old. */
export const RETRY_DELAYS_MS = [
  30_000,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
] as const;
/** A mail not sent within this long is given up (`dead`) and logged as an error. */
export const GIVE_UP_AFTER_MS = 24 * 60 * MINUTE;
/** An attempt holds its row this long; if the instance dies meanwhile, any instance retries then. */
export const LEASE_MS = 5 * MINUTE;
/** Dead rows are kept this long for an operator to look at, then deleted. */
const KEEP_DEAD_MS = 30 * 24 * 60 * MINUTE;
const BATCH_SIZE = 20;
const PARALLEL_SENDS = 4;

interface StoredAttachment {
  filename: string;
  contentBase64: string;
  contentType: string;
  cid: string;
}
type StoredMail = Omit<MailMessage, "attachments"> & { attachments?: StoredAttachment[] };

interface ClaimedMail {
  id: string;
  kind: MailKind;
  message: StoredMail | string;
  attempts: number;
  createdAt: Date;
}

export interface OutboxDepth {
  pending: number;
  dead: number;
}

export interface DeliveryResult {
  sent: number;
  retrying: number;
  dead: number;
}

interface OutboxDeps {
  db: Database;
  /** The transport: SMTP, or the dev mailbox. */
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  /** The rows this instance sends (migration 20261126060000); "" in production. */
  queue?: string;
}

/**
 * The durable mail outbox. A command writes its mail with `enqueue` in its own transaction, so
 * the mail exists exactly when the change it tells of does; once that transaction commits, this
 * instance tries to send it at once, and the `mail-outbox` job (every few seconds, and at start)
 * sends whatever is due on any instance: retries, and mail whose instance died before sending.
 *
 * Rows are claimed with FOR UPDATE SKIP LOCKED by moving `next_attempt_at` to a lease, so two
 * instances never send the same row at once and no lock is held while SMTP talks. A sent row is
 * deleted (its body may hold a code). A failure waits RETRY_DELAYS_MS; past GIVE_UP_AFTER_MS,
 * or when the server refuses the recipient for good (5xx to RCPT TO), the row becomes `dead`.
 * A crash after the SMTP server took a mail and before its row was deleted sends it again
 * when the lease runs out: at least once, never lost.
 */
export class MailOutbox {
  private pass: Promise<DeliveryResult> | null = null;
  private again = false;
  private stopped = false;

  private readonly queue: string;

  constructor(private readonly deps: OutboxDeps) {
    this.queue = deps.queue ?? "";
  }

  /**
   * Writes `mail` to the outbox through `db` (the caller's transaction, or the database); it is
   * sent once that transaction commits.
   */
  async enqueue(db: Knex | Knex.Transaction, mail: MailMessage, kind: MailKind): Promise<void> {
    const now = this.deps.clock.now();
    await db("outgoing_mails").insert({
      queue: this.queue,
      kind,
      message: JSON.stringify(toStored(mail)),
      next_attempt_at: now,
      created_at: now,
    });
    const trx = db as Knex.Transaction;
    if (trx.isTransaction && trx.executionPromise) {
      trx.executionPromise.then(
        () => this.kick(),
        () => {}, // rolled back: the row is gone with it
      );
    } else {
      this.kick();
    }
  }

  /** Starts a delivery pass soon (one at a time; a kick during a pass runs another after it). */
  kick(): void {
    if (this.stopped) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    setImmediate(() => {
      if (this.stopped) return;
      void this.deliverDue().catch((error) =>
        this.deps.logger.error({ err: error }, "mail outbox pass failed"),
      );
    });
  }

  /** Sends every mail due now; the job and tests call it. Resolves when the pass ends. */
  deliverDue(): Promise<DeliveryResult> {
    if (this.stopped) return Promise.resolve({ sent: 0, retrying: 0, dead: 0 });
    return this.startPass();
  }

  private startPass(): Promise<DeliveryResult> {
    if (this.pass) {
      this.again = true;
      return this.pass;
    }
    const run = async (): Promise<DeliveryResult> => {
      const total: DeliveryResult = { sent: 0, retrying: 0, dead: 0 };
      do {
        this.again = false;
        for (;;) {
          const claimed = await this.claim();
          await forEachLimited(claimed, PARALLEL_SENDS, (row) => this.attempt(row, total));
          if (claimed.length < BATCH_SIZE || this.stopped) break;
        }
      } while (this.again && !this.stopped);
      return total;
    };
    this.pass = run().finally(() => {
      this.pass = null;
    });
    return this.pass;
  }

  /** Resolves once no pass runs in this instance (tests; shutdown). */
  async idle(): Promise<void> {
    while (this.pass) await this.pass.catch(() => undefined);
  }

  /**
   * Shutdown: no new pass starts; the one under way finishes, then one last batch goes (mail
   * written just before, e.g. by work queued after an answer), then the transport closes. What
   * is still unsent waits in the database for the next instance to start.
   */
  async close(): Promise<void> {
    this.stopped = true;
    await this.idle();
    await this.startPass().catch((error) =>
      this.deps.logger.warn({ err: error }, "mail outbox: last pass before shutdown failed"),
    );
    this.deps.mailer.close();
  }

  /** How many mails wait to be sent, and how many were given up (for /metrics). */
  async depth(): Promise<OutboxDepth> {
    const rows: { status: string; count: number }[] = await this.deps
      .db("outgoing_mails")
      .where("queue", this.queue)
      .select("status")
      .count({ count: "*" })
      .groupBy("status");
    const of = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
    return { pending: of("pending"), dead: of("dead") };
  }

  /** Deletes dead rows older than KEEP_DEAD_MS. */
  async forgetOldDead(): Promise<void> {
    const before = new Date(this.deps.clock.now().getTime() - KEEP_DEAD_MS);
    await this.deps
      .db("outgoing_mails")
      .where({ queue: this.queue, status: "dead" })
      .where("created_at", "<", before)
      .delete();
  }

  private async claim(): Promise<ClaimedMail[]> {
    const now = this.deps.clock.now();
    const lease = new Date(now.getTime() + LEASE_MS);
    const claimed: { rows: ClaimedMail[] } = await this.deps.db.raw(
      `with due as (
         select id from outgoing_mails
          where queue = ? and status = 'pending' and next_attempt_at <= ?
          order by next_attempt_at limit ? for update skip locked)
       update outgoing_mails o set next_attempt_at = ?, attempts = o.attempts + 1
         from due where o.id = due.id
       returning o.id, o.kind, o.message, o.attempts, o.created_at as "createdAt"`,
      [this.queue, now, BATCH_SIZE, lease],
    );
    return claimed.rows;
  }

  private async attempt(row: ClaimedMail, total: DeliveryResult): Promise<void> {
    const { db, mailer, clock, logger } = this.deps;
    try {
      await mailer.send(fromStored(row.message));
    } catch (error) {
      const now = clock.now();
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      const context = { err: error, mailId: row.id, kind: row.kind, attempt: row.attempts };
      const tooOld = now.getTime() - new Date(row.createdAt).getTime() >= GIVE_UP_AFTER_MS;
      if (tooOld || refusedForGood(error)) {
        total.dead += 1;
        logger.error(context, `mail given up after ${row.attempts} attempts (outbox: dead)`);
        await db("outgoing_mails")
          .where("id", row.id)
          .update({ status: "dead", last_error: message });
        return;
      }
      const delay = RETRY_DELAYS_MS[Math.min(row.attempts, RETRY_DELAYS_MS.length) - 1] as number;
      const retryAt = new Date(now.getTime() + delay);
      total.retrying += 1;
      logger.warn({ ...context, retryAt }, "mail not sent; will retry");
      await db("outgoing_mails")
        .where("id", row.id)
        .update({ next_attempt_at: retryAt, last_error: message });
      return;
    }
    total.sent += 1;
    await db("outgoing_mails").where("id", row.id).delete();
  }
}

/**
 * The SMTP server refused every recipient with a permanent (5xx) answer: sending again will
 * not change its mind. Anything else (no connection, 4xx, a refused login) is worth retrying:
 * the server comes back, or an operator fixes its settings.
 */
function refusedForGood(error: unknown): boolean {
  const { code, responseCode } = error as { code?: string; responseCode?: number };
  return code === "EENVELOPE" && typeof responseCode === "number" && responseCode >= 500;
}

function toStored(mail: MailMessage): StoredMail {
  const { attachments, ...rest } = mail;
  if (!attachments?.length) return rest;
  return {
    ...rest,
    attachments: attachments.map(({ content, ...attachment }) => ({
      ...attachment,
      contentBase64: content.toString("base64"),
    })),
  };
}

function fromStored(stored: StoredMail | string): MailMessage {
  const mail: StoredMail = typeof stored === "string" ? JSON.parse(stored) : stored;
  const { attachments, ...rest } = mail;
  if (!attachments?.length) return rest;
  return {
    ...rest,
    attachments: attachments.map(({ contentBase64, ...attachment }) => ({
      ...attachment,
      content: Buffer.from(contentBase64, "base64"),
    })),
  };
}
