import type { Knex } from "knex";
import { DUE_DATE_MESSAGES } from "../../shared/due-dates";
import type { TimeZoneInput } from "../../shared/schemas/due-dates";
import { badRequest } from "../errors";
import { User } from "../models";

/**
 * PUT /api/user/time-zone: the zone the person's browser reports (issue 27: their reminders
 * fall at 09:00 there, and "today" is theirs). The zone must be one the database knows too,
 * since the reminder sweep computes the hour there: a name only this Node knows is a 400.
 */
export async function setTimeZone(db: Knex, actor: User, input: TimeZoneInput): Promise<User> {
  try {
    await db.raw("select now() at time zone ?", [input.timeZone]);
  } catch {
    throw badRequest(DUE_DATE_MESSAGES.timeZone);
  }
  return await User.query(db).patchAndFetchById(actor.id, { timeZone: input.timeZone });
}
