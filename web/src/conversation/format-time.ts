import { i18n } from "../i18n/i18n";
import { dateTimeFormat } from "../i18n/formats";

/**
 * Dates as people read them in a conversation: a time, and a day heading, in the reader's
 * language (formats.ts keeps one formatter per language and options).
 */

const TIME: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit" };
const WEEKDAY: Intl.DateTimeFormatOptions = { weekday: "long" };
const DATE: Intl.DateTimeFormatOptions = { weekday: "short", day: "numeric", month: "short" };
const DATE_WITH_YEAR: Intl.DateTimeFormatOptions = {
  day: "numeric",
  month: "short",
  year: "numeric",
};
const FULL: Intl.DateTimeFormatOptions = { dateStyle: "full", timeStyle: "short" };

const DAY_MS = 24 * 60 * 60 * 1000;

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** "14:05" or "2:05 PM", as the reader's language writes it. */
export function formatTime(iso: string): string {
  return dateTimeFormat(TIME).format(new Date(iso));
}

/** "Monday, 3 March 2025 at 14:05": for a title or a screen reader. */
export function formatFull(iso: string): string {
  return dateTimeFormat(FULL).format(new Date(iso));
}

/** The local calendar day of a date, to group messages under day headings. */
export function dayKey(iso: string): string {
  const date = new Date(iso);
  return `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
}

/** "Today", "Yesterday", "Wednesday" (this week), "Mon, 3 Mar", or with the year when older. */
export function formatDay(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  const days = Math.round((startOfDay(now) - startOfDay(date)) / DAY_MS);
  if (days === 0) return i18n.t("Today", { ns: "conversation" });
  if (days === 1) return i18n.t("Yesterday", { ns: "conversation" });
  if (days > 1 && days < 7) return dateTimeFormat(WEEKDAY).format(date);
  if (date.getFullYear() === now.getFullYear()) return dateTimeFormat(DATE).format(date);
  return dateTimeFormat(DATE_WITH_YEAR).format(date);
}

/** For lists: the time today, else the day ("Yesterday", "Mon, 3 Mar"). */
export function formatActivity(iso: string, now: Date = new Date()): string {
  return startOfDay(new Date(iso)) === startOfDay(now) ? formatTime(iso) : formatDay(iso, now);
}
