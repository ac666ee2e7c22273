import { useEffect, useState } from "react";
import { EDIT_WINDOW_MINUTES } from "../../../shared/message-changes";
import type { Message } from "./messages-query";

const WINDOW_MS = EDIT_WINDOW_MINUTES * 60_000;

/**
 * Whether the viewer may still edit or delete `message` (issue 28): their own (the same person,
 * not a colleague), not deleted, and sent less than EDIT_WINDOW_MINUTES ago. Turns false by
 * itself when the window closes; the server decides in the end (409 after).
 */
export function useChangeable(message: Message, viewerId: string | undefined): boolean {
  const own = viewerId !== undefined && message.authorId === viewerId && !message.deleted;
  const closesAt = Date.parse(message.createdAt) + WINDOW_MS;
  const [now, setNow] = useState(() => Date.now());
  const open = own && now < closesAt;
  useEffect(() => {
    if (!open) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, closesAt - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [open, closesAt]);
  return open;
}
