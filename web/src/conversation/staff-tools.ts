import type { UseComposerPicker } from "./composer-picker";
import type { Presence } from "./use-presence";

/** Schedules a text (or a note) for `at`: the composer's "Send later". */
export type ScheduleLater = (content: string, at: Date, visibility?: "internal") => Promise<void>;

/**
 * What the staff's conversation has and the client portal's does not: saved replies (issue 28),
 * presence (issue 26) and Send later (issue 28). The dashboard passes these hooks in, so the
 * portal's first load carries none of their code (its budget, docs/decisions.md). Hooks, called
 * on every render of a conversation given them: a page passes them always or never.
 */
export interface StaffTools {
  usePicker: UseComposerPicker;
  usePresence: (clientId: string) => Presence;
  useScheduleLater: (clientId: string) => ScheduleLater;
}
