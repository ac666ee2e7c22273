import { useInfiniteQuery } from "@tanstack/react-query";
import { type AuditPage, describeAuditAction } from "../../../shared/schemas/audit";
import { apiGet, apiUrl } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Alert } from "../ui/alert";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";

const PAGE_SIZE = 25;
const fullTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** "2 min ago", "yesterday", "3 days ago"; a date past a month. */
export function timeAgo(at: Date, now = new Date()): string {
  const seconds = Math.round((at.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return "just now";
  if (abs < 3_600) return relative.format(Math.round(seconds / 60), "minute");
  if (abs < 86_400) return relative.format(Math.round(seconds / 3_600), "hour");
  if (abs < 30 * 86_400) return relative.format(Math.round(seconds / 86_400), "day");
  return fullTime.format(at);
}

/**
 * The workspace's audit log (issue 26), for its owner and admins: who did what and when, as
 * sentences, newest first, a page at a time, and the whole log as a CSV download.
 */
export function TeamActivity() {
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
          Activity
        </h3>
        <a
          className="team-activity__export"
          href={apiUrl("/api/team/audit.csv")}
          download
          aria-label="Export the activity log as CSV"
        >
          Export CSV
        </a>
      </div>
      <p className="settings-section__hint">
        Who did what in this workspace, newest first. Kept for 400 days.
      </p>
      {log.isPending ? (
        <div className="team-members__loading" role="status">
          <Spinner size="sm" label="" />
          <span>Loading activity…</span>
        </div>
      ) : log.isError && !entries.length ? (
        <Alert variant="destructive" title="Could not load the activity">
          <Button variant="secondary" size="sm" onClick={() => void log.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : entries.length === 0 ? (
        <p className="team-activity__empty">Nothing yet: what your team does will show here.</p>
      ) : (
        <>
          <ol className="team-activity" aria-label="Activity">
            {entries.map((entry) => {
              const at = new Date(entry.at);
              return (
                <li key={entry.id} className="team-activity__entry">
                  <span className="team-activity__what">
                    <strong>{entry.actorName}</strong> {describeAuditAction(entry)}
                  </span>
                  <span aria-hidden="true" className="team-activity__dot">
                    ·
                  </span>
                  <time
                    className="team-activity__when"
                    dateTime={entry.at}
                    title={fullTime.format(at)}
                  >
                    {timeAgo(at)}
                  </time>
                </li>
              );
            })}
          </ol>
          {log.isFetchNextPageError && (
            <p className="team-activity__empty" role="alert">
              Could not load older activity.
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
              Load more
            </Button>
          )}
        </>
      )}
    </section>
  );
}
