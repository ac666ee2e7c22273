import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { RealtimeStatus } from "./realtime-connection";
import "./connection-banner.css";

/** How long a drop may last before it is shown: short blips are not worth a flash. */
const SHOW_AFTER_MS = 2_000;

/**
 * "Reconnecting..." while the live connection is down for more than a moment; `notice` (the
 * owner app's offline notice: offline-banner.tsx) instead when there is one.
 */
export function ConnectionBanner({
  status,
  notice,
}: {
  status: RealtimeStatus;
  notice?: ReactNode;
}) {
  const { t } = useTranslation("common");
  const down = status === "reconnecting";
  const [shown, setShown] = useState(false);

  useEffect(() => {
    if (!down) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [down]);

  return (
    <div className="connection-banner" role="status" aria-live="polite">
      {notice ||
        (shown && (
          <p className="connection-banner__text">
            <span className="connection-banner__dot" aria-hidden="true" />
            {t("Connection lost. Reconnecting…")}
          </p>
        ))}
    </div>
  );
}
