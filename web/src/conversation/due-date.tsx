import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { daysUntil, localDate } from "../../../shared/due-dates";
import { dateTimeFormat } from "../i18n/formats";
import { i18n } from "../i18n/i18n";
import "./due-date.css";

// The staff's editor: the portal's first load never needs it.
const DueDateEditor = lazy(() => import("./due-date-editor"));

/** This browser's zone: the one "today" is judged in (and the one it reports to the server). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Today as the viewer counts days, checked again every minute (a card left open overnight). */
export function useToday(): string {
  const [today, setToday] = useState(() => localDate(new Date(), browserTimeZone()));
  useEffect(() => {
    const timer = setInterval(() => setToday(localDate(new Date(), browserTimeZone())), 60_000);
    return () => clearInterval(timer);
  }, []);
  return today;
}

/** "Dec 3", or "Dec 3, 2027" when not in `today`'s year, in the reader's language. */
export function formatDueDate(dueDate: string, today: string): string {
  const sameYear = dueDate.slice(0, 4) === today.slice(0, 4);
  return dateTimeFormat({
    timeZone: "UTC",
    month: "short",
    day: "numeric",
    ...(sameYear ? {} : { year: "numeric" }),
  }).format(new Date(`${dueDate}T12:00:00Z`));
}

/** What the owner's side is told of a pending file's due date, by the days left. */
function urgencyOf(days: number): { label: string; tone: "soon" | "late" } | null {
  if (days < 0) return { label: i18n.t("Overdue", { ns: "conversation" }), tone: "late" };
  if (days === 0) return { label: i18n.t("Due today", { ns: "conversation" }), tone: "soon" };
  if (days === 1) return { label: i18n.t("Due tomorrow", { ns: "conversation" }), tone: "soon" };
  return null;
}

export interface DueDateProps {
  messageId: string;
  clientId: string;
  /** Names the file to screen readers: a conversation has several cards. */
  fileName: string;
  dueDate: string | null;
  viewerRole: "owner" | "client";
}

/**
 * A pending file's due date on its card (issue 27): "Due Dec 3" to both sides; to the owner's
 * side also "Due tomorrow", "Due today" (amber) or "Overdue" (red), by the viewer's own day;
 * and for the staff, a way to set, change or clear it.
 */
export function DueDate({ messageId, clientId, fileName, dueDate, viewerRole }: DueDateProps) {
  const { t } = useTranslation("conversation");
  const today = useToday();
  const [editing, setEditing] = useState(false);
  const changeButton = useRef<HTMLButtonElement>(null);
  const stopEditing = () => {
    setEditing(false);
    // Keyboard users go on from where they were.
    requestAnimationFrame(() => changeButton.current?.focus());
  };
  const urgency = dueDate && viewerRole === "owner" ? urgencyOf(daysUntil(dueDate, today)) : null;
  if (!dueDate && viewerRole !== "owner") return null;
  return (
    <div className="due-date">
      {dueDate && (
        <span className="due-date__date">
          <Trans
            t={t}
            i18nKey="Due <0>{{date}}</0>"
            values={{ date: formatDueDate(dueDate, today) }}
            components={[<time key="date" dateTime={dueDate} />]}
          />
        </span>
      )}
      {urgency && (
        <span className={`due-date__badge due-date__badge--${urgency.tone}`}>{urgency.label}</span>
      )}
      {viewerRole === "owner" && !editing && (
        <button
          ref={changeButton}
          type="button"
          className="due-date__change"
          aria-label={
            dueDate
              ? t("Change due date of {{file}}", { file: fileName })
              : t("Set due date of {{file}}", { file: fileName })
          }
          onClick={() => setEditing(true)}
        >
          {dueDate ? t("Change due date") : t("Set due date")}
        </button>
      )}
      {editing && (
        <Suspense fallback={null}>
          <DueDateEditor
            messageId={messageId}
            clientId={clientId}
            dueDate={dueDate}
            today={today}
            onDone={stopEditing}
          />
        </Suspense>
      )}
    </div>
  );
}
