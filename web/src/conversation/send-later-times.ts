import { SCHEDULE_MAX_AHEAD_MS, SCHEDULE_MIN_LEAD_MS } from "../../../shared/schedule-limits";
import { dateTimeFormat } from "../i18n/formats";
import { i18n } from "../i18n/i18n";

/**
 * Scheduled send (issue 28): the quick choices and how times read, in the browser's zone and
 * the reader's language.
 */

const CHOICE_DATE: Intl.DateTimeFormatOptions = {
  weekday: "short",
  month: "short",
  day: "numeric",
};
const WHEN: Intl.DateTimeFormatOptions = { ...CHOICE_DATE, hour: "numeric", minute: "2-digit" };

/** 09:00 local time `days` after today. */
function nineOClock(now: Date, days: number): Date {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, 9, 0, 0, 0);
}

export interface QuickChoice {
  label: string;
  /** The date it falls on, e.g. "Tue, Dec 1". */
  date: string;
  at: Date;
}

/** "Tomorrow 9:00" and "Monday 9:00" (the next Monday after today). */
export function quickChoices(now: Date = new Date()): QuickChoice[] {
  const tomorrow = nineOClock(now, 1);
  const daysToMonday = (8 - now.getDay()) % 7 || 7;
  const monday = nineOClock(now, daysToMonday);
  return [
    {
      label: i18n.t("Tomorrow 9:00", { ns: "conversation" }),
      date: dateTimeFormat(CHOICE_DATE).format(tomorrow),
      at: tomorrow,
    },
    {
      label: i18n.t("Monday 9:00", { ns: "conversation" }),
      date: dateTimeFormat(CHOICE_DATE).format(monday),
      at: monday,
    },
  ];
}

/** "Tue, Dec 1, 9:00 AM", as the reader's language writes it. */
export function formatWhen(at: Date | string): string {
  return dateTimeFormat(WHEN).format(new Date(at));
}

const pad = (value: number) => String(value).padStart(2, "0");

/** A datetime-local input's value ("2026-12-01T09:00") for a local time. */
export function toLocalInput(at: Date): string {
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A datetime-local input's value read as local time; undefined when empty or not a time. */
export function fromLocalInput(value: string): Date | undefined {
  if (!value) return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * What is wrong with a chosen time, or undefined. The server says the same
 * (SCHEDULE_MESSAGES); written out here so that the reader's language has them.
 */
export function sendAtProblem(at: Date | undefined, now: Date = new Date()): string | undefined {
  if (!at) return i18n.t("Choose a date and time", { ns: "conversation" });
  if (at.getTime() < now.getTime() + SCHEDULE_MIN_LEAD_MS)
    return i18n.t("Choose a time at least a minute from now", { ns: "conversation" });
  if (at.getTime() > now.getTime() + SCHEDULE_MAX_AHEAD_MS)
    return i18n.t("Messages can be scheduled at most a year ahead", { ns: "conversation" });
  return undefined;
}
