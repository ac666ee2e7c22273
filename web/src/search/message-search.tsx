import { type KeyboardEvent, type ReactNode, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SearchResult } from "../api/search";
import { formatActivity, formatFull } from "../conversation/format-time";
import { Button } from "../ui/button";
import { FileIcon, LockIcon, SearchIcon } from "../ui/icons";
import { CloseIcon } from "../ui/notice-icons";
import { Spinner } from "../ui/spinner";
import { Snippet } from "./snippet";
import { useSearchResults } from "./use-search";
import "./search.css";

interface MessageSearchProps {
  /** Only this conversation (the client portal); else all the owner's. */
  clientId?: string;
  /** Name the conversation of each result (the owner's search across clients). */
  showClientName: boolean;
  onOpen: (result: SearchResult) => void;
  /** Shown while nothing is typed (the dashboard's client list). */
  children?: ReactNode;
  autoFocus?: boolean;
  placeholder?: string;
}

/**
 * A search field and its results, as a combobox: typing searches (after a short pause), the
 * arrow keys move through the results, Enter opens one, Escape clears the field.
 */
export function MessageSearch({
  clientId,
  showClientName,
  onOpen,
  children,
  autoFocus,
  placeholder,
}: MessageSearchProps) {
  const { t } = useTranslation("conversation");
  const [typed, setTyped] = useState("");
  const [active, setActive] = useState(-1);
  const search = useSearchResults(typed, clientId);
  const { results } = search;
  const listId = useId();
  const optionId = (index: number) => `${listId}-${index}`;
  const searching = typed.trim().length > 0;

  // New words: nothing chosen yet.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the words change
  useEffect(() => setActive(-1), [search.q]);

  useEffect(() => {
    if (active < 0) return;
    document.getElementById(optionId(active))?.scrollIntoView({ block: "nearest" });
  });

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" && results.length > 0) {
      event.preventDefault();
      setActive((index) => Math.min(index + 1, results.length - 1));
    } else if (event.key === "ArrowUp" && results.length > 0) {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === "Enter") {
      const chosen = results[active] ?? (results.length === 1 ? results[0] : undefined);
      if (chosen) {
        event.preventDefault();
        onOpen(chosen);
      }
    } else if (event.key === "Escape" && typed) {
      event.preventDefault();
      event.stopPropagation();
      setTyped("");
    }
  };

  const status = (() => {
    if (!searching) return null;
    if (search.isError && results.length === 0) return "error";
    if ((search.isPending || search.settling) && results.length === 0) return "loading";
    if (!search.settling && !search.isFetching && results.length === 0) return "empty";
    return null;
  })();

  return (
    <div className="message-search">
      <div className="message-search__field">
        <SearchIcon />
        <input
          className="message-search__input"
          type="search"
          role="combobox"
          aria-label={t("Search messages")}
          aria-expanded={searching}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={active >= 0 ? optionId(active) : undefined}
          placeholder={placeholder ?? t("Search messages")}
          value={typed}
          maxLength={200}
          autoComplete="off"
          spellCheck={false}
          // biome-ignore lint/a11y/noAutofocus: the search dialog opens to type in it
          autoFocus={autoFocus}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {typed && (
          <button
            type="button"
            className="message-search__clear"
            aria-label={t("Clear search")}
            onClick={() => setTyped("")}
          >
            <CloseIcon />
          </button>
        )}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {searching && !search.settling && !search.isFetching
          ? results.length === 0
            ? t("No results")
            : search.hasNextPage
              ? t("{{count}} or more results", { count: results.length })
              : t("{{count}} results", { count: results.length })
          : ""}
      </p>
      {!searching && children}
      {searching && (
        <div className="message-search__results" aria-busy={search.isFetching || undefined}>
          {status === "loading" && (
            <div className="message-search__status">
              <Spinner size="sm" label={t("Searching")} />
            </div>
          )}
          {status === "error" && (
            <div className="message-search__status" role="alert">
              <p>{t("We couldn't search your messages.")}</p>
              <Button variant="secondary" size="sm" onClick={() => void search.refetch()}>
                {t("Try again")}
              </Button>
            </div>
          )}
          {status === "empty" && (
            <div className="message-search__status">
              <p className="message-search__empty-title">{t("No messages found")}</p>
              <p className="message-search__hint">
                {t("Nothing matches “{{query}}”. Try fewer or shorter words.", { query: search.q })}
              </p>
            </div>
          )}
          <div
            id={listId}
            role="listbox"
            aria-label={t("Search results")}
            className="message-search__list"
          >
            {results.map((result, index) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the field's arrow keys and Enter choose options (aria-activedescendant)
              <div
                key={result.messageId}
                id={optionId(index)}
                role="option"
                tabIndex={-1}
                aria-selected={index === active}
                className={`search-result${index === active ? " search-result--active" : ""}`}
                onClick={() => onOpen(result)}
                // The field keeps the focus (and the keyboard its place) when a result is clicked.
                onMouseDown={(event) => event.preventDefault()}
              >
                <ResultBody result={result} showClientName={showClientName} />
              </div>
            ))}
          </div>
          {search.hasNextPage && (
            <div className="message-search__more">
              <Button
                variant="ghost"
                size="sm"
                loading={search.isFetchingNextPage}
                onClick={() => void search.fetchNextPage()}
              >
                {search.isFetchNextPageError
                  ? t("Couldn't load more. Try again")
                  : t("More results")}
              </Button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}

function ResultBody({ result, showClientName }: { result: SearchResult; showClientName: boolean }) {
  const { t } = useTranslation("conversation");
  return (
    <>
      <span className="search-result__head">
        <span className="search-result__who">
          {showClientName ? result.clientName : result.senderName}
        </span>
        <time
          className="search-result__time"
          dateTime={result.createdAt}
          title={formatFull(result.createdAt)}
        >
          {formatActivity(result.createdAt)}
        </time>
      </span>
      {showClientName && <span className="search-result__sender">{result.senderName}</span>}
      {result.visibility === "internal" && (
        <span className="search-result__note">
          <LockIcon />
          {t("Internal note")}
        </span>
      )}
      <span className="search-result__snippet" dir="auto">
        {result.kind === "file" && <FileIcon />}
        <Snippet parts={result.snippet} />
      </span>
    </>
  );
}
