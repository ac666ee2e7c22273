import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { PRESENCE_TYPING_ENDS_MS } from "../../../shared/presence-timing";
import type { PresentPerson } from "../../../shared/realtime-presence";
import { presenceStore } from "../realtime/presence-store";

export interface Presence {
  /** Colleagues in this conversation (the viewer left out). */
  people: readonly PresentPerson[];
  /** The viewer typed within the last few seconds. */
  typing: boolean;
  /** A keystroke in the composer. */
  onTyping: () => void;
  /** The viewer's message went: they are viewing again. */
  onSent: () => void;
}

/**
 * The staff's presence in one conversation (issue 26): viewing while it is open and the tab
 * visible, typing from a keystroke until PRESENCE_TYPING_ENDS_MS after the last one, idle when
 * it closes or the tab is hidden. The staff's only (conversation/staff-tools.ts).
 */
export function usePresence(clientId: string): Presence {
  const [typing, setTyping] = useState(false);
  const typingEnds = useRef<ReturnType<typeof setTimeout> | null>(null);

  const people = useSyncExternalStore(
    (listener) => presenceStore.subscribe(listener),
    () => presenceStore.people(clientId),
  );

  const stopTyping = useCallback(() => {
    if (typingEnds.current) clearTimeout(typingEnds.current);
    typingEnds.current = null;
    setTyping(false);
  }, []);

  useEffect(() => {
    const say = () => {
      if (document.visibilityState === "visible") presenceStore.report(clientId, "viewing");
      else {
        stopTyping();
        presenceStore.report(clientId, "idle");
      }
    };
    say();
    document.addEventListener("visibilitychange", say);
    return () => {
      document.removeEventListener("visibilitychange", say);
      stopTyping();
      presenceStore.report(clientId, "idle");
    };
  }, [clientId, stopTyping]);

  const onTyping = useCallback(() => {
    presenceStore.report(clientId, "typing");
    setTyping(true);
    if (typingEnds.current) clearTimeout(typingEnds.current);
    typingEnds.current = setTimeout(() => {
      typingEnds.current = null;
      setTyping(false);
      presenceStore.report(clientId, "viewing");
    }, PRESENCE_TYPING_ENDS_MS);
  }, [clientId]);

  const onSent = useCallback(() => {
    stopTyping();
    presenceStore.report(clientId, "viewing");
  }, [clientId, stopTyping]);

  return { people, typing, onTyping, onSent };
}
