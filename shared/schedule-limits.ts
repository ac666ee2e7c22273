import { msg } from "./i18n/msg";

/** Scheduled send (issue 28): its limits and messages, for the server and the web app alike (no zod). */

/** The earliest a message may be scheduled (from the server's clock), and the latest. */
export const SCHEDULE_MIN_LEAD_MS = 60_000;
export const SCHEDULE_MAX_AHEAD_MS = 365 * 24 * 60 * 60_000;

export const SCHEDULE_MESSAGES = {
  format: msg("sendAt must be a date and time such as 2027-01-04T09:00:00+01:00"),
  tooSoon: msg("Choose a time at least a minute from now"),
  tooLate: msg("Messages can be scheduled at most a year ahead"),
  nothingToChange: msg("Give a new content or sendAt"),
  notAuthor: msg("Only its author can change or send a scheduled message"),
} as const;
