import { msg } from "./i18n/msg";

/**
 * Editing and deleting one's own message (issue 28, point 3): how long after sending, and the
 * texts the server answers with and the web shows.
 */
export const EDIT_WINDOW_MINUTES = 15;

export const MESSAGE_CHANGE_MESSAGES = {
  // EDIT_WINDOW_MINUTES written out (server/i18n/written-out-limits.test.ts).
  editTooLate: msg("Messages can be edited for 15 minutes after sending"),
  deleteTooLate: msg("Messages can be deleted for 15 minutes after sending"),
  editNotAuthor: msg("Only the author can edit this message"),
  deleteNotAuthor: msg("Only the author can delete this message"),
  deleted: msg("This message has been deleted"),
  noText: msg("This file has no text to edit"),
  decided: msg("A file can be deleted only until a decision has been made on it"),
} as const;

/** Whether a message sent at `createdAt` may still be changed by its author at `now`. */
export function withinEditWindow(createdAt: string | Date, now: Date): boolean {
  return now.getTime() - new Date(createdAt).getTime() <= EDIT_WINDOW_MINUTES * 60_000;
}
