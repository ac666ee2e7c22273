import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { installedConnectivity } from "../api/installed-connectivity";
import { useOfflineCause } from "../api/use-connectivity";
import { ConnectionBanner } from "./connection-banner";
import type { RealtimeStatus } from "./realtime-connection";

/** How long the server may not answer before it is shown: a blip is not worth a flash. */
const SHOW_AFTER_MS = 2_000;

/** The cause once it has held for SHOW_AFTER_MS; at once when the browser itself is offline. */
function useShownCause() {
  const cause = useOfflineCause();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    setShown(cause === "device");
    if (cause !== "server") return;
    const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [cause]);
  return shown ? cause : null;
}

/**
 * The owner app's connection banner: "You're offline" (or "Can't reach the server") while the
 * server cannot be reached, with what was loaded still on screen and messages waiting in the
 * queue; otherwise the live connection's "Reconnecting...".
 */
export function OfflineBanner({ status }: { status: RealtimeStatus }) {
  const { t } = useTranslation("common");
  const cause = useShownCause();
  const notice = cause && (
    <p className="connection-banner__text">
      <span className="connection-banner__dot" aria-hidden="true" />
      <span>
        <strong>{cause === "device" ? t("You're offline.") : t("Can't reach the server.")}</strong>{" "}
        {t("Messages you send will go out when the connection is back.")}
      </span>
      <button
        type="button"
        className="connection-banner__action"
        onClick={() => installedConnectivity()?.probeNow()}
      >
        {t("Try now")}
      </button>
    </p>
  );
  return <ConnectionBanner status={status} notice={notice} />;
}
