import type { StaffTools } from "../conversation/staff-tools";
import { usePresence } from "../conversation/use-presence";
import { useSavedReplyPicker } from "../conversation/use-saved-reply-picker";
import { useScheduleLater } from "../conversation/use-schedule-later";

/** The dashboard's conversation tools (conversation/staff-tools.ts). */
export const staffConversationTools: StaffTools = {
  usePicker: useSavedReplyPicker,
  usePresence,
  useScheduleLater,
};
