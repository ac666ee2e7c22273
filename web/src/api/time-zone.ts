import { useEffect } from "react";
import { apiPut } from "./client";
import type { User } from "./current-user";

/** Reported (or being reported) in this page load: once is enough. */
let reported = false;
/**
 * How long after the page has what it shows the report waits: a first screen is one request
 * (the first-screen tests), and a reminder days away does not need it sooner.
 */
const REPORT_AFTER_MS = 3_000;

/**
 * Tells the server this browser's time zone when it differs from the stored one, once per page
 * load (the dashboard and the portal): due-date reminders fall at 09:00 there (issue 27).
 */
export function useReportTimeZone(user: User | null | undefined): void {
  const stored = user?.timeZone;
  const signedIn = Boolean(user);
  useEffect(() => {
    if (!signedIn || reported) return;
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!zone || stored === zone) return;
    const timer = setTimeout(() => {
      reported = true;
      apiPut("/api/user/time-zone", { timeZone: zone }).catch(() => {
        // Not worth a word to the person: the next load tries again.
        reported = false;
      });
    }, REPORT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [signedIn, stored]);
}
