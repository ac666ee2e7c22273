import { z } from "zod";
import { TIER_CONFIG, type Tier } from "../tiers";
import { msg } from "../i18n/msg";

/** What the audit log records (issue 26): who did what in a workspace. */
export const AUDIT_ACTIONS = [
  "member.invited",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "workspace.transferred",
  "client.added",
  "client.assigned",
  "client.deleted",
  "client.restored",
  "client.purged",
  "client.invite_reissued",
  "contact.added",
  "contact.removed",
  "plan.changed",
  "seats.changed",
  "staff.signed_in",
  "workspace.retention_changed",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an entry carries besides its subject, by action (all optional: kept rows stay as written). */
export interface AuditDetails {
  /** member.invited, member.joined: the role; member.role_changed: the new one. */
  role?: string;
  /** member.role_changed: the role before. */
  previousRole?: string;
  /** member.invited: an open invite to the same address was sent again. */
  reissued?: boolean;
  /** client.assigned: the assignees' names, the lead first (empty: nobody now). */
  assignees?: string[];
  /** contact.added, contact.removed: the client's name. */
  client?: string;
  /** plan.changed: the new plan. */
  tier?: string;
  /** seats.changed: the extra seats bought now, and before the change. */
  seats?: number;
  previousSeats?: number;
  /**
   * client.deleted: the days it can be restored for (absent: deleted at once);
   * workspace.retention_changed: the new days (0: deleted clients go at once).
   */
  keptDays?: number;
  /** staff.signed_in: how. */
  method?: "password" | "google" | "desktop";
}

/** An entry as GET /api/team/audit lists it. */
export const auditEntrySchema = z.strictObject({
  id: z.string(),
  at: z.string(),
  actorName: z.string(),
  action: z.string(),
  subjectLabel: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** GET /api/team/audit: newest first; `nextCursor` asks for the older ones (null: no more). */
export const auditPageSchema = z.strictObject({
  entries: z.array(auditEntrySchema),
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

/** GET /api/team/audit's query: `before` is a page's nextCursor, opaque to callers. */
export const auditQuery = z.object({
  before: z
    .string()
    .regex(/^[0-9a-f-]{36}$/i, { error: msg("That page of the audit log does not exist") })
    .optional(),
  limit: z.coerce
    .number()
    .int({ error: msg("limit must be a whole number") })
    .min(1, { error: msg("limit must be between 1 and 200") })
    .max(AUDIT_PAGE_MAX, { error: msg("limit must be between 1 and 200") })
    .default(AUDIT_PAGE_DEFAULT),
});
export type AuditQuery = z.infer<typeof auditQuery>;

const roleName = (role: unknown) =>
  role === "admin" ? "Admin" : role === "member" ? "Member" : role === "owner" ? "Owner" : "?";
const planName = (tier: unknown) =>
  typeof tier === "string" && tier in TIER_CONFIG ? TIER_CONFIG[tier as Tier].name : String(tier);
const METHODS: Record<string, string> = {
  password: "with a password",
  google: "with Google",
  desktop: "in the desktop app",
};

/**
 * What the actor did, as a sentence to follow their name: "invited mia@example.com as Member".
 * The UI and the CSV export say it alike.
 */
export function describeAuditAction(
  entry: Pick<AuditEntry, "action" | "subjectLabel" | "details">,
) {
  const { subjectLabel: subject, details } = entry;
  switch (entry.action as AuditAction) {
    case "member.invited":
      return `${details.reissued ? "invited again" : "invited"} ${subject} as ${roleName(details.role)}`;
    case "member.joined":
      return `joined the team as ${roleName(details.role)}`;
    case "member.role_changed":
      return `changed ${subject}'s role from ${roleName(details.previousRole)} to ${roleName(details.role)}`;
    case "member.removed":
      return `removed ${subject} from the team`;
    case "workspace.transferred":
      return `made ${subject} the workspace's owner`;
    case "client.added":
      return `added the client ${subject}`;
    case "client.assigned": {
      const names = Array.isArray(details.assignees) ? (details.assignees as string[]) : [];
      return names.length
        ? `assigned ${subject} to ${names.join(", ")}`
        : `left ${subject} unassigned`;
    }
    case "client.deleted":
      return typeof details.keptDays === "number"
        ? `deleted the client ${subject} (restorable for ${details.keptDays} days)`
        : `deleted the client ${subject}`;
    case "client.restored":
      return `restored the client ${subject}`;
    case "client.purged":
      return `removed the deleted client ${subject} for good`;
    case "client.invite_reissued":
      return `issued a new invite link for ${subject}`;
    case "contact.added":
      return `invited ${subject} as a contact of ${String(details.client)}`;
    case "contact.removed":
      return `removed ${subject} from the contacts of ${String(details.client)}`;
    case "plan.changed":
      return `changed the plan to ${planName(details.tier)}`;
    case "seats.changed":
      return typeof details.previousSeats === "number"
        ? `changed the extra seats from ${details.previousSeats} to ${String(details.seats)}`
        : `changed the extra seats to ${String(details.seats)}`;
    case "staff.signed_in":
      return `signed in ${METHODS[String(details.method)] ?? ""}`.trim();
    case "workspace.retention_changed":
      return details.keptDays
        ? `set deleted clients to be kept for ${String(details.keptDays)} days`
        : "set deleted clients to be removed at once";
    default:
      return `${entry.action} ${subject}`;
  }
}
