/** Dates as people read them in a conversation: a time, and a day heading. */

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "numeric", minute: "2-digit" });
const weekdayFormat = new Intl.DateTimeFormat(undefined, { weekday: "long" });
const dateFormat = new Intl.DateTimeFormat(undefined, {
  weekday: "short",
  day: "numeric",
  month: "short",
});
const dateWithYearFormat = new Intl.DateTimeFormat(undefined, {
  day: "numeric",
  month: "short",
  year: "numeric",
});
const fullFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "short" });

const DAY_MS = 24 * 60 * 60 * 1000;

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** "14:05" or "2:05 PM", as the browser's locale writes it. */
export function formatTime(iso: string): string {
  return timeFormat.format(new Date(iso));
}

/** "Monday, 3 March 2025 at 14:05": for a title or a screen reader. */
export function formatFull(iso: string): string {
  return fullFormat.format(new Date(iso));
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
  if (days === 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days > 1 && days < 7) return weekdayFormat.format(date);
  if (date.getFullYear() === now.getFullYear()) return dateFormat.format(date);
  return dateWithYearFormat.format(date);
}

/** For lists: the time today, else the day ("Yesterday", "Mon, 3 Mar"). */
export function formatActivity(iso: string, now: Date = new Date()): string {
  return startOfDay(new Date(iso)) === startOfDay(now) ? formatTime(iso) : formatDay(iso, now);
}
