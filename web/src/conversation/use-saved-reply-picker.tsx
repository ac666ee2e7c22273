import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { MESSAGE_MAX_LENGTH } from "../../../shared/message-limits";
import { serverMessage } from "../api/client";
import { fillSavedReply, type SavedReply, useSavedReplies } from "../api/saved-replies";
import { useToast } from "../ui/toast";
import type { ComposerPicker, ComposerPickerInput } from "./composer-picker";
import { SavedReplyPicker } from "./saved-reply-picker";
import { matchSavedReplies, slashQueryAt } from "./slash-query";

/**
 * The staff's saved replies in the composer (issue 28): `/` at the start of the field or
 * after a space opens a list above it that filters as one types; ArrowUp and ArrowDown move,
 * Enter or Tab insert the reply filled in for this conversation in place of `/query`, Escape
 * closes it and leaves the text. The field keeps the focus throughout (combobox pattern while
 * the list is open).
 */
export function useSavedReplyPicker({
  clientId,
  text,
  setText,
  field,
}: ComposerPickerInput): ComposerPicker {
  /** The caret while the field has the focus (or the picker does); null otherwise. */
  const [caret, setCaret] = useState<number | null>(null);
  /** The slash whose picker Escape closed: it stays closed until another slash. */
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [cursor, setCursor] = useState({ query: "", index: 0 });
  const [inserting, setInserting] = useState(false);
  const caretAfterInsert = useRef<number | null>(null);
  const popupRef = useRef<HTMLDivElement>(null);
  const listId = useId();
  const { t } = useTranslation("conversation");
  const toast = useToast();

  const slash = caret === null ? null : slashQueryAt(text, caret);
  const wanted = slash !== null && slash.start !== dismissed;
  const replies = useSavedReplies(wanted);
  const matches = wanted && replies.data ? matchSavedReplies(replies.data, slash.query) : [];
  // "/tmp folder": a slash in a sentence that matches nothing once a space follows is not a search.
  const open = wanted && !(slash.query.includes(" ") && replies.data && matches.length === 0);
  const active = slash && cursor.query === slash.query ? cursor.index : 0;
  const optionId = (index: number) => `${listId}-option-${index}`;

  // Each opening shows the list as cached and fetches it again: colleagues add replies too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per opening (the first loads anyway)
  useEffect(() => {
    if (open && replies.data) void replies.refetch();
  }, [open]);

  // A slash closed with Escape stays closed until the caret leaves it.
  const inSlash = slash !== null;
  useEffect(() => {
    if (!inSlash) setDismissed(null);
  }, [inSlash]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caret follows the inserted text
  useLayoutEffect(() => {
    const position = caretAfterInsert.current;
    if (position === null || !field.current) return;
    caretAfterInsert.current = null;
    field.current.focus();
    field.current.setSelectionRange(position, position);
  }, [text]);

  const insert = async (reply: SavedReply) => {
    if (!slash || inserting) return;
    const token = text.slice(slash.start, caret ?? slash.start);
    setInserting(true);
    try {
      const content = await fillSavedReply(reply.id, clientId);
      // What was typed meanwhile is kept: the `/query` is replaced where it still is.
      const current = field.current?.value ?? text;
      const from = current.startsWith(token, slash.start) ? slash.start : current.length;
      const to = from === slash.start ? slash.start + token.length : from;
      const next = `${current.slice(0, from)}${content}${current.slice(to)}`;
      caretAfterInsert.current = Math.min(from + content.length, MESSAGE_MAX_LENGTH);
      setCaret(caretAfterInsert.current);
      setDismissed(null);
      setText(next.slice(0, MESSAGE_MAX_LENGTH));
    } catch (error) {
      toast({
        title: t("Could not insert the saved reply"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      });
    } finally {
      setInserting(false);
    }
  };

  const move = (step: number) => {
    if (!slash || matches.length === 0) return;
    const index = (active + step + matches.length) % matches.length;
    setCursor({ query: slash.query, index });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !slash || event.nativeEvent.isComposing) return false;
    const chosen = matches[active];
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp":
        if (matches.length === 0) return false;
        event.preventDefault();
        move(event.key === "ArrowDown" ? 1 : -1);
        return true;
      case "Enter":
      case "Tab":
        if (event.shiftKey || (!chosen && !inserting)) return false;
        event.preventDefault();
        if (chosen) void insert(chosen);
        return true;
      case "Escape":
        event.preventDefault();
        event.stopPropagation();
        setDismissed(slash.start);
        return true;
      default:
        return false;
    }
  };

  const followCaret = (event: { currentTarget: HTMLTextAreaElement }) =>
    setCaret(event.currentTarget.selectionStart);

  return {
    fieldProps: {
      // A text box until `/` opens the list, a combobox while it is open: the field stays
      // what it is for writing, and the list is announced with its active reply.
      ...(open && {
        role: "combobox",
        "aria-autocomplete": "list",
        "aria-expanded": true,
        // The list when there is one, else the picker's message (required while expanded).
        "aria-controls": matches.length > 0 ? listId : `${listId}-picker`,
        "aria-activedescendant": matches[active] ? optionId(active) : undefined,
      }),
      onInput: followCaret,
      onSelect: followCaret,
      onFocus: followCaret,
      onBlur: (event) => {
        // Tab to the picker's own link or button keeps it open.
        if (!popupRef.current?.contains(event.relatedTarget)) setCaret(null);
      },
    },
    onKeyDown,
    hint: t("Type / to insert a saved reply."),
    popup: open ? (
      <SavedReplyPicker
        ref={popupRef}
        id={`${listId}-picker`}
        listId={listId}
        optionId={optionId}
        query={slash.query}
        replies={replies}
        matches={matches}
        activeIndex={active}
        inserting={inserting}
        onPick={(reply) => void insert(reply)}
        onHover={(index) => setCursor({ query: slash.query, index })}
        onLeave={(event) => {
          if (
            event.relatedTarget !== field.current &&
            !popupRef.current?.contains(event.relatedTarget)
          )
            setCaret(null);
        }}
      />
    ) : null,
  };
}
