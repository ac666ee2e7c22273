import { useDeferredValue, useEffect, useId, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Button } from "../ui/button";
import { LockIcon } from "../ui/icons";
import { Spinner } from "../ui/spinner";
import { formatFull } from "./format-time";
import { isPoint, type Mark } from "./marks-api";
import type { MarksState } from "./use-marks";

interface MarksPanelProps {
  state: MarksState;
  numbers: Map<string, number>;
  /** Shows a mark: its page first (PDFs), then highlighted, with its thread open. */
  onShow: (mark: Mark) => void;
}

/**
 * Beside the page (desktop) or under it (phones): the new mark's form, the version's marks in
 * order, and the thread of the chosen one (replies, a reply form, Resolve / Reopen).
 */
export function MarksPanel({ state, numbers, onShow }: MarksPanelProps) {
  const { t } = useTranslation("conversation");
  const [collapsed, setCollapsed] = useState(false);
  // The thread last open: back in the list, the focus returns to its entry.
  const [lastOpened, setLastOpened] = useState<string | null>(null);
  const headingId = useId();
  const { marks, selectedId } = state;
  const selected = marks?.find((mark) => mark.id === selectedId) ?? null;
  const open = marks?.filter((mark) => !mark.resolved).length ?? 0;
  // A form or a thread to show opens the panel again.
  const shows = !collapsed || state.draft !== null || selected !== null;
  return (
    <section className="marks-panel" aria-labelledby={headingId}>
      <div className="marks-panel__header">
        <h3 id={headingId} className="marks-panel__title">
          {t("Marks")}
          {marks && (
            <span className="marks-panel__count">
              {" "}
              {marks.length > 0
                ? t("({{total}}, {{open}} open)", { total: marks.length, open })
                : "(0)"}
            </span>
          )}
        </h3>
        <Button
          variant="ghost"
          size="sm"
          className="marks-panel__toggle"
          aria-expanded={shows}
          onClick={() => {
            setCollapsed(shows);
            if (shows) state.select(null);
          }}
        >
          {shows ? t("Hide") : t("Show")}
        </Button>
      </div>
      {shows && (
        <div className="marks-panel__body">
          {state.draft ? (
            <DraftForm state={state} />
          ) : selected ? (
            <Thread
              mark={selected}
              number={numbers.get(selected.id) ?? 0}
              state={state}
              onBack={() => {
                setLastOpened(selected.id);
                state.select(null);
              }}
            />
          ) : (
            <MarkList state={state} numbers={numbers} onShow={onShow} focusId={lastOpened} />
          )}
        </div>
      )}
    </section>
  );
}

function MarkList({
  state,
  numbers,
  onShow,
  focusId,
}: MarksPanelProps & { focusId: string | null }) {
  const { t } = useTranslation("conversation");
  const { isPending, isError } = state;
  // A long list (a proof with hundreds of marks) renders after the page and its pins.
  const marks = useDeferredValue(state.marks);
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (focusId)
      listRef.current
        ?.querySelector<HTMLElement>(`[data-mark-item="${CSS.escape(focusId)}"]`)
        ?.focus();
  }, [focusId]);
  if (isPending || (state.marks && !marks)) return <Spinner size="sm" label={t("Loading marks")} />;
  if (isError) return <p className="marks-panel__note">{t("The marks couldn't be loaded.")}</p>;
  if (!marks || marks.length === 0)
    return (
      <p className="marks-panel__note">
        {t("No marks yet.")}
        {state.target.canAdd && ` ${t("Choose Add mark, then click the file.")}`}
      </p>
    );
  return (
    <ol className="marks-list" ref={listRef}>
      {marks.map((mark) => (
        <li key={mark.id}>
          <button
            type="button"
            data-mark-item={mark.id}
            className={`marks-list__item${mark.resolved ? " marks-list__item--resolved" : ""}`}
            onClick={() => onShow(mark)}
          >
            <span className="marks-list__line">
              <span
                className={`marks-list__number${mark.visibility === "internal" ? " marks-list__number--internal" : ""}`}
              >
                {numbers.get(mark.id)}
              </span>
              <span className="marks-list__meta">
                {isPoint(mark)
                  ? t("Page {{page}} · point · {{author}}", {
                      page: mark.page,
                      author: mark.author.name,
                    })
                  : t("Page {{page}} · box · {{author}}", {
                      page: mark.page,
                      author: mark.author.name,
                    })}
              </span>
            </span>
            <span className="marks-list__comment">{mark.comment}</span>
            <MarkBadges mark={mark} />
          </button>
        </li>
      ))}
    </ol>
  );
}

/** Resolved, internal, carried over, replies: said in words, not only by colour. */
function MarkBadges({ mark }: { mark: Mark }) {
  const { t } = useTranslation("conversation");
  const replies = mark.replies.length;
  return (
    <span className="marks-badges">
      {mark.carriedFromId && (
        <span className="mark-badge mark-badge--carried">
          {t("Check this (from version {{version}})", { version: mark.version - 1 })}
        </span>
      )}
      {mark.visibility === "internal" && (
        <span className="mark-badge mark-badge--internal">
          <LockIcon /> {t("Internal: only your team sees this")}
        </span>
      )}
      {mark.resolved && <span className="mark-badge mark-badge--resolved">{t("Resolved")}</span>}
      {replies > 0 && (
        <span className="mark-badge">{t("{{count}} replies", { count: replies })}</span>
      )}
    </span>
  );
}

function Thread({
  mark,
  number,
  state,
  onBack,
}: {
  mark: Mark;
  number: number;
  state: MarksState;
  onBack: () => void;
}) {
  const { t } = useTranslation("conversation");
  const [reply, setReply] = useState("");
  const fieldId = useId();
  const threadRef = useRef<HTMLElement>(null);
  // Opening a thread (from the list, the page or a save) takes the focus there.
  useEffect(() => {
    if (mark.id) threadRef.current?.focus();
  }, [mark.id]);
  return (
    <article
      ref={threadRef}
      className="mark-thread"
      aria-label={t("Mark {{number}}", { number })}
      tabIndex={-1}
    >
      <Button variant="ghost" size="sm" className="mark-thread__back" onClick={onBack}>
        {t("All marks")}
      </Button>
      <header className="mark-thread__head">
        <span
          className={`marks-list__number${mark.visibility === "internal" ? " marks-list__number--internal" : ""}`}
        >
          {number}
        </span>
        <span className="marks-list__meta">
          <Trans
            t={t}
            i18nKey="Page {{page}} · {{author}} · <0>{{date}}</0>"
            values={{ page: mark.page, author: mark.author.name, date: formatFull(mark.createdAt) }}
            components={[<time key="date" dateTime={mark.createdAt} />]}
          />
        </span>
      </header>
      <p className="mark-thread__comment">{mark.comment}</p>
      <MarkBadges mark={mark} />
      {mark.resolved && mark.resolvedByName && (
        <p className="marks-panel__note">
          {t("Resolved by {{name}}", { name: mark.resolvedByName })}
        </p>
      )}
      {mark.replies.length > 0 && (
        <ol className="mark-thread__replies" aria-label={t("Replies")}>
          {mark.replies.map((entry) => (
            <li key={entry.id} className="mark-thread__reply">
              <span className="marks-list__meta">
                {entry.author.name} ·{" "}
                <time dateTime={entry.createdAt}>{formatFull(entry.createdAt)}</time>
              </span>
              <p className="mark-thread__text">{entry.content}</p>
            </li>
          ))}
        </ol>
      )}
      <form
        className="mark-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!reply.trim()) return;
          state.reply(mark.id, reply.trim(), () => setReply(""));
        }}
      >
        <label className="mark-form__label" htmlFor={fieldId}>
          {t("Reply")}
        </label>
        <textarea
          id={fieldId}
          className="mark-form__field"
          rows={2}
          value={reply}
          disabled={state.replying}
          onChange={(event) => setReply(event.target.value)}
        />
        <div className="mark-form__buttons">
          <Button
            variant="secondary"
            size="sm"
            loading={state.resolving}
            onClick={() => state.setResolved(mark.id, !mark.resolved)}
          >
            {mark.resolved ? t("Reopen") : t("Resolve")}
          </Button>
          <Button type="submit" size="sm" loading={state.replying} disabled={!reply.trim()}>
            {t("Send reply")}
          </Button>
        </div>
      </form>
    </article>
  );
}

function DraftForm({ state }: { state: MarksState }) {
  const { t } = useTranslation("conversation");
  const [comment, setComment] = useState("");
  const [internal, setInternal] = useState(false);
  const fieldId = useId();
  const point = state.draft !== null && isPoint(state.draft);
  return (
    <form
      className="mark-form"
      aria-label={t("New mark")}
      onSubmit={(event) => {
        event.preventDefault();
        if (!comment.trim()) return;
        state.save(comment.trim(), internal);
      }}
    >
      <label className="mark-form__label" htmlFor={fieldId}>
        {point ? t("Comment on this point") : t("Comment on this box")}
      </label>
      <textarea
        id={fieldId}
        className="mark-form__field"
        rows={3}
        value={comment}
        disabled={state.saving}
        onChange={(event) => setComment(event.target.value)}
        // The mark was placed with a pointer; a keyboard placement keeps the focus on it.
        // biome-ignore lint/a11y/noAutofocus: the comment is what is asked for next
        autoFocus={!state.draftByKeyboard}
      />
      {state.target.viewerRole === "owner" && (
        <label className="mark-form__check">
          <input
            type="checkbox"
            checked={internal}
            onChange={(event) => setInternal(event.target.checked)}
          />
          {t("Only our team sees this")}
        </label>
      )}
      <div className="mark-form__buttons">
        <Button variant="ghost" size="sm" onClick={() => state.setAdding(false)}>
          {t("Cancel")}
        </Button>
        <Button type="submit" size="sm" loading={state.saving} disabled={!comment.trim()}>
          {t("Save mark")}
        </Button>
      </div>
    </form>
  );
}
