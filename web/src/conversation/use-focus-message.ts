import { useEffect, useState } from "react";
import type { Message } from "./messages-query";
import type { ChatScroll, OlderPages } from "./use-chat-scroll";

interface FocusMessageOptions {
  /** The message to show (a search result), or none. */
  focusMessageId: string | null | undefined;
  messages: Message[] | undefined;
  older: OlderPages;
  scroll: Pick<ChatScroll, "showMessage" | "holdPosition">;
  /** It is shown, or it is not in the conversation. */
  onFocused: (() => void) | undefined;
}

/**
 * A message to show: older pages load until it is there, then it is scrolled to the middle of
 * the view; the message shown (to highlight) is returned.
 */
export function useFocusMessage({
  focusMessageId,
  messages,
  older,
  scroll: { showMessage, holdPosition },
  onFocused,
}: FocusMessageOptions): string | null {
  const [foundId, setFoundId] = useState<string | null>(null);
  const { hasMore, loading, failed, load } = older;

  useEffect(() => {
    if (!focusMessageId || !messages) return;
    if (showMessage(focusMessageId)) {
      setFoundId(focusMessageId);
      onFocused?.();
    } else if (hasMore && !failed) {
      // Older pages go above the messages in view, which stay where they are meanwhile.
      holdPosition();
      if (!loading) load();
    } else if (!loading) {
      onFocused?.();
    }
  }, [
    focusMessageId,
    messages,
    hasMore,
    loading,
    failed,
    load,
    showMessage,
    holdPosition,
    onFocused,
  ]);

  return foundId;
}
