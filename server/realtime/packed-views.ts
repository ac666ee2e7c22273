import * as z from "zod/mini";
import { type MessagePayload, messageSchema } from "../../shared/schemas/message-payload";
import type { Role } from "../../shared/schemas/user";
import type { MessageViews } from "./events";

/**
 * A new message's views as they cross between instances, packed: a NOTIFY payload holds at most
 * 8,000 bytes and one is in flight at a time, so each byte saved is throughput. The two sides'
 * views are nearly the same message: it goes once (`m`, without its id, which the event
 * carries, and without its null fields), and each side lists only where its view differs
 * (`s`: the owner's name as the portal shows it, usually nothing).
 */
export interface PackedViews {
  m: Record<string, unknown>;
  s: Partial<Record<Role, Record<string, unknown>>>;
}

const FIELDS = Object.keys(messageSchema.shape) as (keyof MessagePayload)[];
/** Optional fields that are never null: packed away when absent, absent again when unpacked. */
const ABSENT_NOT_NULL = [
  "visibility",
  "openMarks",
  "approvalRule",
  "approvals",
  "deleted",
] as const;

const packedSchema = z.object({
  m: z.record(z.string(), z.unknown()),
  s: z.partial(
    z.object({
      owner: z.record(z.string(), z.unknown()),
      client: z.record(z.string(), z.unknown()),
    }),
  ),
});

/** Equal field values; a list (a file's approvals) by its content, each side has its own copy. */
const sameValue = (a: unknown, b: unknown) =>
  a === b || (typeof a === "object" && a !== null && JSON.stringify(a) === JSON.stringify(b));

export function packViews(views: MessageViews): PackedViews | null {
  const sides = (["owner", "client"] as const).filter((side) => views[side]);
  const base = sides[0] && views[sides[0]];
  if (!base) return null;
  const m: Record<string, unknown> = {};
  for (const field of FIELDS) {
    if (field !== "id" && base[field] !== null && base[field] !== undefined) m[field] = base[field];
  }
  const s: PackedViews["s"] = {};
  for (const side of sides) {
    const differs: Record<string, unknown> = {};
    for (const field of FIELDS) {
      if (!sameValue(views[side]![field], base[field])) differs[field] = views[side]![field];
    }
    s[side] = differs;
  }
  return { m, s };
}

/** The views back, each checked as a message; null when anything does not check out. */
export function unpackViews(messageId: string, packed: unknown): MessageViews | null {
  const parsed = packedSchema.safeParse(packed);
  if (!parsed.success) return null;
  const views: MessageViews = {};
  for (const side of ["owner", "client"] as const) {
    const differs = parsed.data.s[side];
    if (!differs) continue;
    const view: Record<string, unknown> = {};
    for (const field of FIELDS) view[field] = parsed.data.m[field] ?? null;
    Object.assign(view, differs, { id: messageId });
    // Absent rather than null: a view from an instance that predates the field (issue 26), and
    // the fields only a file sent for approval carries (issue 27).
    for (const field of ABSENT_NOT_NULL) if (view[field] === null) delete view[field];
    const checked = messageSchema.safeParse(view);
    if (!checked.success) return null;
    views[side] = checked.data;
  }
  return Object.keys(views).length > 0 ? views : null;
}
