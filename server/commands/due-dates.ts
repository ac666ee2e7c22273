import type { Knex } from "knex";
import { DUE_DATE_MESSAGES, daysUntil, localDate } from "../../shared/due-dates";
import { dueDateField } from "../../shared/schemas/due-dates";
import type { Services } from "../context";
import { badRequest } from "../errors";
import { type Client, Message, type User } from "../models";
import { parseOrThrow } from "../validate";

/**
 * Due dates of files sent for approval (issue 27, point 4). A thread (a file and its versions)
 * has at most one, kept on its first message's `file_due_dates` row, so a new version keeps it
 * unless it brings its own. A date may not be before today as the person setting it counts
 * days (their time zone, else UTC); clearing is always allowed.
 */

/** 400 unless `dueDate` is today or later for `actor`. */
export function assertNotPast(dueDate: string, actor: Pick<User, "timeZone">, now: Date): void {
  if (daysUntil(dueDate, localDate(now, actor.timeZone)) < 0)
    throw badRequest(DUE_DATE_MESSAGES.past);
}

/**
 * The multipart field `dueDate` of an upload (`requiresFeedback`: the upload asks for a
 * decision; a version always does): undefined when none was given; 400 when malformed, past,
 * or on a file that asks for no decision.
 */
export function dueDateOfUpload(
  field: string | undefined,
  requiresFeedback: boolean,
  actor: Pick<User, "timeZone">,
  now: Date,
): string | undefined {
  const dueDate = parseOrThrow(dueDateField, field);
  if (dueDate === undefined) return undefined;
  if (!requiresFeedback) throw badRequest(DUE_DATE_MESSAGES.needsFeedback);
  assertNotPast(dueDate, actor, now);
  return dueDate;
}

/**
 * In `trx`: sets (a date) or clears (null) the due date of the thread `threadId`, or with
 * undefined leaves it; answers the thread's due date afterwards.
 */
export async function writeThreadDueDate(
  trx: Knex.Transaction,
  threadId: string,
  dueDate: string | null | undefined,
  actorId: string,
  now: Date,
): Promise<string | null> {
  if (dueDate === null) {
    await trx("fileDueDates").where({ threadId }).delete();
    return null;
  }
  if (dueDate !== undefined) {
    await trx("fileDueDates")
      .insert({ threadId, dueDate, setBy: actorId, updatedAt: now })
      .onConflict("threadId")
      .merge(["dueDate", "setBy", "updatedAt"]);
    return dueDate;
  }
  const row = await trx("fileDueDates")
    .select(trx.raw("due_date::text as due"))
    .where({ threadId })
    .first();
  return (row?.due as string | undefined) ?? null;
}

/**
 * PATCH /api/messages/{id}/due-date: the staff change or clear the due date of the thread of
 * `target` (any of its messages). The thread's first message is locked, as a new version's
 * upload locks it. Records DueDateChanged, whose realtime event has both sides look again.
 */
export async function changeDueDate(
  services: Services,
  actor: User,
  client: Client,
  target: Message,
  dueDate: string | null,
): Promise<void> {
  const now = services.clock.now();
  if (dueDate !== null) assertNotPast(dueDate, actor, now);
  const rootId = target.versionOf ?? target.id;
  const recorded = await services.db.transaction(async (trx) => {
    const root = await Message.query(trx).findOne({ id: rootId, clientId: client.id }).forUpdate();
    if (!root?.fileId || !root.requiresFeedback || root.senderRole !== "owner")
      throw badRequest(DUE_DATE_MESSAGES.needsFeedback);
    await writeThreadDueDate(trx, rootId, dueDate, actor.id, now);
    return services.events.record(trx, {
      type: "DueDateChanged",
      clientId: client.id,
      messageId: target.id,
    });
  });
  services.events.dispatch(recorded);
}
