import { randomUUID } from "node:crypto";
import type { Knex } from "knex";
import type { AuditAction, AuditDetails } from "../../shared/schemas/audit";
import type { Clock } from "../clock";

/** The audit log keeps an entry this long (the audit-log-retention job deletes older ones). */
export const AUDIT_KEEP_DAYS = 400;

/** Who did it: a person (kept by name, as they were named then), or the system (billing). */
export type AuditActor = { id: string; fullName: string } | { id: null; fullName: string };

/** The system's name in the log, for what no person did (a payment failed, Stripe's events). */
export const BILLING_ACTOR: AuditActor = { id: null, fullName: "Billing" };

export interface AuditRecord {
  /** The workspace (its owner's user id) whose log gets the entry. */
  workspaceId: string;
  actor: AuditActor;
  action: AuditAction;
  subject: {
    type: "member" | "invite" | "client" | "contact" | "workspace";
    id: string | null;
    label: string;
  };
  details?: AuditDetails;
}

/**
 * Writes an audit entry through `db`: the transaction of the change it records, so the entry
 * exists exactly when the change does (a refused or rolled-back action leaves none). Names are
 * copied into the row: the log still reads right once the person or the client is gone.
 */
export async function recordAudit(
  services: { clock: Clock },
  db: Knex | Knex.Transaction,
  record: AuditRecord,
): Promise<void> {
  await db("audit_entries").insert({
    id: randomUUID(),
    workspaceId: record.workspaceId,
    actorId: record.actor.id,
    actorName: record.actor.fullName,
    action: record.action,
    subjectType: record.subject.type,
    subjectId: record.subject.id,
    subjectLabel: record.subject.label,
    details: JSON.stringify(record.details ?? {}),
    createdAt: services.clock.now(),
  });
}

/**
 * Deletes the entries older than AUDIT_KEEP_DAYS; answers how many went. Run every few hours,
 * each pass finds a few hours' worth: one statement, by the created_at index.
 */
export async function deleteExpiredAuditEntries(db: Knex, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - AUDIT_KEEP_DAYS * 24 * 3_600_000);
  const deleted = await db("audit_entries").where("createdAt", "<", cutoff).delete();
  return Number(deleted);
}
