import type { UseQueryResult } from "@tanstack/react-query";
import { type FocusEvent, type Ref, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import type { SavedReply } from "../api/saved-replies";
import { Button } from "../ui/button";
import { Spinner } from "../ui/spinner";
import "./saved-reply-picker.css";

interface SavedReplyPickerProps {
  ref: Ref<HTMLDivElement>;
  id: string;
  listId: string;
  optionId: (index: number) => string;
  query: string;
  replies: UseQueryResult<SavedReply[]>;
  matches: SavedReply[];
  activeIndex: number;
  inserting: boolean;
  onPick: (reply: SavedReply) => void;
  onHover: (index: number) => void;
  /** The focus left the picker (from its link or button). */
  onLeave: (event: FocusEvent<HTMLDivElement>) => void;
}

/** The list `/` opens above the staff's composer (issue 28); the field keeps the focus. */
export function SavedReplyPicker({
  ref,
  id,
  listId,
  optionId,
  query,
  replies,
  matches,
  activeIndex,
  inserting,
  onPick,
  onHover,
  onLeave,
}: SavedReplyPickerProps) {
  const { t } = useTranslation("conversation");
  // biome-ignore lint/correctness/useExhaustiveDependencies: the active option stays in view
  useEffect(() => {
    document.getElementById(optionId(activeIndex))?.scrollIntoView({ block: "nearest" });
  }, [activeIndex]);

  const none = replies.data?.length === 0;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the focus leaving its link or button closes it
    <div className="reply-picker" id={id} ref={ref} onBlur={onLeave}>
      <div className="reply-picker__head">
        <span className="reply-picker__heading">{t("Saved replies")}</span>
        {inserting ? (
          <span className="reply-picker__keys">
            <Spinner size="sm" label="" /> {t("Inserting…")}
          </span>
        ) : (
          matches.length > 0 && (
            <span className="reply-picker__keys" aria-hidden="true">
              {t("↑↓ choose · Enter insert · Esc close")}
            </span>
          )
        )}
      </div>
      {replies.isPending && (
        <p className="reply-picker__status">
          <Spinner size="sm" label="" /> {t("Loading saved replies…")}
        </p>
      )}
      {replies.isLoadingError && (
        <div className="reply-picker__status" role="alert">
          <span>{t("We couldn't load your saved replies.")}</span>
          <Button variant="secondary" size="sm" onClick={() => void replies.refetch()}>
            {t("Try again")}
          </Button>
        </div>
      )}
      {none && (
        <p className="reply-picker__status">
          <span>
            {t("No saved replies yet: keep the answers you give often, then type / to insert one.")}
          </span>
          <SettingsLink>{t("Add a saved reply")}</SettingsLink>
        </p>
      )}
      {!none && replies.data && matches.length === 0 && (
        <p className="reply-picker__status">
          <span>{t("No saved reply matches “{{query}}”.", { query })}</span>
          <SettingsLink>{t("Manage saved replies")}</SettingsLink>
        </p>
      )}
      {matches.length > 0 && (
        <div
          className="reply-picker__list"
          id={listId}
          role="listbox"
          aria-label={t("Saved replies")}
          aria-busy={inserting || undefined}
        >
          {matches.map((reply, index) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents: the field's arrow keys, Enter and Tab choose options (aria-activedescendant)
            <div
              key={reply.id}
              id={optionId(index)}
              role="option"
              tabIndex={-1}
              aria-selected={index === activeIndex}
              className="reply-picker__option"
              // The field keeps the focus (and the keyboard its place) when a reply is clicked.
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => index !== activeIndex && onHover(index)}
              onClick={() => onPick(reply)}
            >
              <span className="reply-picker__title">{reply.title}</span>
              <span className="reply-picker__text">{reply.text}</span>
            </div>
          ))}
        </div>
      )}
      <p className="visually-hidden" role="status">
        {replies.data && t("{{count}} saved replies", { count: matches.length })}
      </p>
    </div>
  );
}

/** The settings' Saved replies tab, over the conversation that stays open. */
function SettingsLink({ children }: { children: string }) {
  const [params] = useSearchParams();
  const search = new URLSearchParams(params);
  search.set("settings", "replies");
  return (
    <Link className="reply-picker__link" to={{ search: `?${search}` }}>
      {children}
    </Link>
  );
}
