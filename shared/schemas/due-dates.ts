import { z } from "zod";
import { DUE_DATE_MESSAGES, DUE_DATE_PATTERN, isKnownTimeZone, isRealDate } from "../due-dates";

/**
 * A due date: a calendar date "YYYY-MM-DD" that exists. Whether it is in the past depends on the
 * owner's time zone and the clock: the command checks it (server/commands/due-dates.ts).
 */
export const dueDateSchema = z
  .string({ error: DUE_DATE_MESSAGES.format })
  .regex(DUE_DATE_PATTERN, DUE_DATE_MESSAGES.format)
  .refine(isRealDate, DUE_DATE_MESSAGES.notADate);

/** Multipart field `dueDate` of an upload or a new version: absent or empty for none given. */
export const dueDateField = z
  .string({ error: DUE_DATE_MESSAGES.format })
  .optional()
  .transform((value) => value || undefined)
  .pipe(dueDateSchema.optional());

/** Body of PATCH /api/messages/{messageId}/due-date: a new date, or null to clear it. */
export const dueDateInput = z.strictObject({
  dueDate: dueDateSchema.nullable(),
});
export type DueDateInput = z.infer<typeof dueDateInput>;

/** Body of PUT /api/user/time-zone: the browser's IANA zone. */
export const timeZoneInput = z.strictObject({
  timeZone: z
    .string({ error: DUE_DATE_MESSAGES.timeZone })
    .refine(isKnownTimeZone, DUE_DATE_MESSAGES.timeZone),
});
export type TimeZoneInput = z.infer<typeof timeZoneInput>;
