import { msg } from "./i18n/msg";

/**
 * Due dates of files sent for approval (issue 27, point 4): calendar dates ("YYYY-MM-DD") read
 * in a person's time zone. No zod here: the portal's file card imports it.
 */

/** Where a person without a known time zone is. */
export const DEFAULT_TIME_ZONE = "UTC";

export const DUE_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export const DUE_DATE_MESSAGES = {
  format: msg("dueDate must be a date written YYYY-MM-DD"),
  notADate: msg("dueDate is not a real date"),
  past: msg("The due date can't be in the past"),
  needsFeedback: msg("Only a file sent for approval can have a due date"),
  timeZone: msg("timeZone must be a time zone such as Europe/Paris"),
} as const;

/** "2026-02-30" is no date: it must read back as itself. */
export function isRealDate(value: string): boolean {
  if (!DUE_DATE_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** A zone this JavaScript knows (Intl.DateTimeFormat throws a RangeError for any other). */
export function isKnownTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The calendar date at `now` in `timeZone` (an unknown zone counts as UTC). */
export function localDate(now: Date, timeZone: string | null | undefined): string {
  const zone = timeZone && isKnownTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
}

/** Whole days from `today` to `dueDate` (both YYYY-MM-DD): 1 tomorrow, 0 today, < 0 overdue. */
export function daysUntil(dueDate: string, today: string): number {
  const day = (value: string) => Date.parse(`${value}T00:00:00Z`) / 86_400_000;
  return Math.round(day(dueDate) - day(today));
}

/** "Dec 3", or "Dec 3, 2027" when not in `today`'s year. */
export function formatDueDate(dueDate: string, today: string): string {
  const date = new Date(`${dueDate}T12:00:00Z`);
  const sameYear = dueDate.slice(0, 4) === today.slice(0, 4);
  return new Intl.DateTimeFormat("en-US", {
    timeZone: "UTC",
    month: "short",
    day: "numeric",
    ...(sameYear ? {} : { year: "numeric" }),
  }).format(date);
}

/** "Thursday, December 3, 2026": how a reminder email writes the date. */
export function formatDueDateLong(dueDate: string): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone: "UTC",
    weekday: "long",
    month: "long",
    day: "numeric",
    year: "numeric",
  }).format(new Date(`${dueDate}T12:00:00Z`));
}
