/**
 * Presence's timings for the browser (issue 26), apart from the schemas: the realtime code
 * every page loads first imports these, and zod (shared/realtime-presence.ts) must stay out of
 * the portal's first load.
 */

/** While typing, the browser repeats `typing` at most this often. */
export const PRESENCE_TYPING_EVERY_MS = 3_000;
/** Typing ends this long after the last keystroke (the browser then says `viewing`). */
export const PRESENCE_TYPING_ENDS_MS = 6_000;
