import { useInfiniteQuery } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { AuditPage } from "../../../shared/schemas/audit";
import { apiGet, apiUrl } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { dateTimeFormat, relativeTimeFormat } from "../i18n/formats";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";
import { AuditSentence } from "./audit-sentence";

const PAGE_SIZE = 25;
const fullTime = () => dateTimeFormat({ dateStyle: "medium", timeStyle: "short" });

/** "2 min ago", "yesterday", "3 days ago"; a date past a month. */
function timeAgo(at: Date, t: TFunction<"settings">, now = new Date()): string {
  const seconds = Math.round((at.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return t("just now");
  const relative = relativeTimeFormat();
  if (abs < 3_600) return relative.format(Math.round(seconds / 60), "minute");
  if (abs < 86_400) return relative.format(Math.round(seconds / 3_600), "hour");
  if (abs < 30 * 86_400) return relative.format(Math.round(seconds / 86_400), "day");
  return fullTime().format(at);
}

/**
 * The workspace's audit log (issue 26), for its owner and admins: who did what and when, as
 * sentences, newest first, a page at a time, and the whole log as a CSV download.
 */
export function TeamActivity() {
  const { t } = useTranslation("settings");
  const log = useInfiniteQuery({
    queryKey: queryKeys.teamAudit,
    queryFn: ({ pageParam }) =>
      apiGet<AuditPage>(
        `/api/team/audit?limit=${PAGE_SIZE}${pageParam ? `&before=${encodeURIComponent(pageParam)}` : ""}`,
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    // Fresh each time the tab opens: what the team did meanwhile shows.
    staleTime: 0,
  });
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <section className="settings-section" aria-labelledby="team-activity-title">
      <div className="team-activity__head">
        <h3 id="team-activity-title" className="settings-section__title">
          {t("Activity")}
        </h3>
        <a
          className="team-activity__export"
          href={apiUrl("/api/team/audit.csv")}
          download
          aria-label={t("Export the activity log as CSV")}
        >
          {t("Export CSV")}
        </a>
      </div>
      <p className="settings-section__hint">
        {t("Who did what in this workspace, newest first. Kept for 400 days.")}
      </p>
      {log.isPending ? (
        <div className="team-members__loading" role="status">
          <Spinner size="sm" label="" />
          <span>{t("Loading activity…")}</span>
        </div>
      ) : log.isError && !entries.length ? (
        <Alert variant="destructive" title={t("Could not load the activity")}>
          <Button variant="secondary" size="sm" onClick={() => void log.refetch()}>
            {t("Try again")}
          </Button>
        </Alert>
      ) : entries.length === 0 ? (
        <p className="team-activity__empty">
          {t("Nothing yet: what your team does will show here.")}
        </p>
      ) : (
        <>
          <ol className="team-activity" aria-label={t("Activity")}>
            {entries.map((entry) => {
              const at = new Date(entry.at);
              return (
                <li key={entry.id} className="team-activity__entry">
                  <span className="team-activity__what">
                    <AuditSentence entry={entry} />
                  </span>
                  <span aria-hidden="true" className="team-activity__dot">
                    ·
                  </span>
                  <time
                    className="team-activity__when"
                    dateTime={entry.at}
                    title={fullTime().format(at)}
                  >
                    {timeAgo(at, t)}
                  </time>
                </li>
              );
            })}
          </ol>
          {log.isFetchNextPageError && (
            <p className="team-activity__empty" role="alert">
              {t("Could not load older activity.")}
            </p>
          )}
          {log.hasNextPage && (
            <Button
              variant="secondary"
              size="sm"
              className="team-activity__more"
              loading={log.isFetchingNextPage}
              onClick={() => void log.fetchNextPage()}
            >
              {t("Load more")}
            </Button>
          )}
        </>
      )}
    </section>
  );
}
