import { useEffect } from "react";
import { outbox } from "./outbox";

function hasUnsent(): boolean {
  return outbox
    .clientIds()
    .some((clientId) =>
      outbox.of(clientId).some((entry) => entry.state === "queued" || entry.state === "sending"),
    );
}

/**
 * The web build keeps unsent messages in memory only (a browser may be shared): leaving or
 * reloading the page while some wait or are being sent asks first (the browser's own prompt).
 * Not for the desktop app, where it would silently keep the app from quitting; it saves them.
 */
export function LeaveWarning() {
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!hasUnsent()) return;
      event.preventDefault();
      // Older browsers show the prompt only for a returnValue.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, []);
  return null;
}
