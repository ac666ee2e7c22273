import { createHash, randomBytes } from "node:crypto";
import type { Services } from "../context";
import { HttpError } from "../errors";
import { recipientOf } from "../i18n/recipient-language";
import { exportReadyMail } from "../mail/export-mails";
import { DataExport, User } from "../models";
import { exportSubject, planExport, streamExport } from "./build-export";

/**
 * Exports too large to stream at once (issue 28, point 4: over EXPORT_INLINE_MAX_BYTES of
 * files) are built by the `data-exports` job into storage and mailed (through the outbox) as a
 * link that works for 24 hours; then the ZIP is deleted.
 *
 * Once across instances: a pass claims a queued row with FOR UPDATE SKIP LOCKED and leases it
 * (status building, `lease_until`); the ZIP is written outside any transaction; the row turns
 * ready and the mail is written in one transaction that first checks the lease is still this
 * pass's (same attempt). An instance that dies mid-build leaves the lease to run out, and
 * another instance builds it again (3 attempts, then `failed`).
 */

export const EXPORT_LINK_HOURS = 24;
const LEASE_MS = 30 * 60_000;
const RETRY_AFTER_MS = 5 * 60_000;
const MAX_ATTEMPTS = 3;
/** Expired and failed rows are kept this long (their links say "expired"), then deleted. */
const KEEP_ROWS_MS = 30 * 24 * 60 * 60_000;

/** How a link's token is kept (queries/export-link.ts finds it the same way). */
const hashExportToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Queues the export of `clientId` (null: the whole workspace `workspaceId`) for `actor`, unless
 * the same one is already queued or being built; the ZIP will be named `fileName`.
 */
export async function queueMailedExport(
  services: Pick<Services, "db" | "clock">,
  actor: User,
  subject: { clientId: string | null; workspaceId: string },
  fileName: string,
): Promise<void> {
  const { clientId, workspaceId } = subject;
  await services.db.transaction(async (trx) => {
    const waiting = await DataExport.query(trx)
      .where({ requestedBy: actor.id })
      .whereIn("status", ["queued", "building"])
      .where((query) => (clientId ? query.where({ clientId }) : query.whereNull("clientId")))
      .first();
    if (waiting) return;
    await DataExport.query(trx).insert({
      requestedBy: actor.id,
      workspaceId,
      clientId,
      fileName,
      status: "queued",
      createdAt: services.clock.now(),
    });
  });
}

/** Builds the queued exports, one after the other; answers how many were mailed. */
export async function buildQueuedExports(services: Services): Promise<number> {
  let mailed = 0;
  for (;;) {
    const claimed = await claimNext(services);
    if (!claimed) return mailed;
    if (await buildAndMail(services, claimed)) mailed += 1;
  }
}

/** The oldest export waiting (or whose builder's lease ran out), leased to this pass. */
async function claimNext(services: Services): Promise<DataExport | null> {
  const now = services.clock.now();
  return services.db.transaction(async (trx) => {
    const found: { rows: { id: string }[] } = await trx.raw(
      `select id from data_exports
        where (status = 'queued' or (status = 'building' and lease_until <= ?))
          and attempts < ?
        order by created_at limit 1 for update skip locked`,
      [now, MAX_ATTEMPTS],
    );
    const id = found.rows[0]?.id;
    if (!id) return null;
    const row = await DataExport.query(trx).findById(id).throwIfNotFound();
    return DataExport.query(trx).patchAndFetchById(id, {
      status: "building",
      attempts: row.attempts + 1,
      leaseUntil: new Date(now.getTime() + LEASE_MS),
      // Named on the row before a byte is written, so the storage sweep keeps it.
      storedName: `export-${randomBytes(18).toString("base64url")}.zip`,
    });
  });
}

async function buildAndMail(services: Services, job: DataExport): Promise<boolean> {
  const storedName = job.storedName!;
  try {
    const viewer = await User.query(services.db).findById(job.requestedBy).throwIfNotFound();
    // Asked again: a member unassigned since, or a contact removed, gets nothing.
    const subject = await exportSubject(
      services,
      viewer,
      job.clientId === null
        ? { kind: "workspace" }
        : viewer.role === "client"
          ? { kind: "own" }
          : { kind: "conversation", clientId: job.clientId },
    );
    const plan = await planExport(services, viewer, subject.clients, job.clientId === null);
    const { size } = await services.storage.put(storedName, streamExport(services, plan));
    const token = randomBytes(32).toString("base64url");
    const now = services.clock.now();
    const expiresAt = new Date(now.getTime() + EXPORT_LINK_HOURS * 3_600_000);
    const mailed = await services.db.transaction(async (trx) => {
      const updated = await DataExport.query(trx)
        .where({ id: job.id, status: "building", attempts: job.attempts })
        .patch({ status: "ready", sizeBytes: size, tokenHash: hashExportToken(token), expiresAt });
      if (updated === 0) return false;
      await services.outbox.enqueue(
        trx,
        exportReadyMail({
          to: viewer.email,
          recipient: await recipientOf(trx, viewer.id),
          recipientName: viewer.fullName,
          subjectName: subject.name,
          fileName: job.fileName,
          sizeBytes: size,
          url: `${services.config.appUrl}/api/exports/${token}`,
          expiresAt,
        }),
        "export-ready",
      );
      return true;
    });
    // Another instance took the lease over meanwhile: its own ZIP goes out, not this one.
    if (!mailed) await services.storage.delete(storedName);
    return mailed;
  } catch (error) {
    await services.storage.delete(storedName).catch(() => {});
    if (error instanceof HttpError) {
      // No longer allowed (or the client is gone): nothing to send, ever.
      await DataExport.query(services.db)
        .findById(job.id)
        .patch({ status: "failed", leaseUntil: null, storedName: null });
      services.logger.info({ exportId: job.id, status: error.status }, "export no longer allowed");
      return false;
    }
    services.logger.error({ err: error, exportId: job.id }, "export build failed; will retry");
    await DataExport.query(services.db)
      .where({ id: job.id, attempts: job.attempts })
      .patch({ leaseUntil: new Date(services.clock.now().getTime() + RETRY_AFTER_MS) });
    return false;
  }
}

/**
 * Deletes the ZIPs whose 24 hours are over (their links then say so), gives up the exports
 * whose last attempt's lease ran out, and deletes old rows.
 */
export async function expireMailedExports(services: Services): Promise<number> {
  const now = services.clock.now();
  const abandoned = await DataExport.query(services.db)
    .where({ status: "building" })
    .where("attempts", ">=", MAX_ATTEMPTS)
    .where("leaseUntil", "<=", now);
  for (const row of abandoned) {
    if (row.storedName) await services.storage.delete(row.storedName);
    await DataExport.query(services.db)
      .where({ id: row.id, attempts: row.attempts, status: "building" })
      .patch({ status: "failed", storedName: null, leaseUntil: null });
    services.logger.error({ exportId: row.id }, "export given up after 3 attempts");
  }
  const expired = await DataExport.query(services.db)
    .where({ status: "ready" })
    .where("expiresAt", "<=", now);
  for (const row of expired) {
    if (row.storedName) await services.storage.delete(row.storedName);
    await DataExport.query(services.db)
      .where({ id: row.id, status: "ready" })
      .patch({ status: "expired", storedName: null });
  }
  await DataExport.query(services.db)
    .whereIn("status", ["expired", "failed"])
    .where("createdAt", "<", new Date(now.getTime() - KEEP_ROWS_MS))
    .delete();
  return expired.length;
}
