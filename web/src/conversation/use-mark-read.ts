import { useEffect, useRef, useSyncExternalStore } from "react";
import { type Message, markRead } from "./messages-query";

function subscribeVisibility(onChange: () => void) {
  document.addEventListener("visibilitychange", onChange);
  return () => document.removeEventListener("visibilitychange", onChange);
}

/** Whether the page is on screen (not a background tab or a minimised window). */
function usePageVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState === "visible",
    () => true,
  );
}

/** Read: the newest message is from the other side, on screen (`atBottom`), in a visible page. */
export function useMarkRead(
  clientId: string,
  newest: Message | undefined,
  viewerRole: "owner" | "client",
  atBottom: boolean,
  onRead: (() => void) | undefined,
): void {
  const pageVisible = usePageVisible();
  const markedReadId = useRef<string | null>(null);
  useEffect(() => {
    if (!newest || newest.senderRole === viewerRole || newest.read) return;
    if (!pageVisible || !atBottom || markedReadId.current === newest.id) return;
    markedReadId.current = newest.id;
    markRead(clientId, newest.id).then(
      () => onRead?.(),
      () => {
        markedReadId.current = null;
      },
    );
  }, [newest, viewerRole, pageVisible, atBottom, clientId, onRead]);
}
