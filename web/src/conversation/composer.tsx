import {
  type FormEvent,
  type KeyboardEvent,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { MESSAGE_MAX_LENGTH } from "../../../shared/message-limits";
import { serverMessage } from "../api/client";
import { Button } from "../ui/button";
import { LockIcon, SendIcon, UploadIcon } from "../ui/icons";
import { optionalPart } from "../ui/optional-part";
import { useToast } from "../ui/toast";
import { type UseComposerPicker, useNoPicker } from "./composer-picker";

/** "Send later" (issue 28) loads with the staff's composer only: the portal has none. */
const SendLaterMenu = optionalPart(() =>
  import("./send-later-menu").then((module) => module.SendLaterMenu),
);

/** The field grows with its text up to this height, then scrolls. */
const MAX_FIELD_HEIGHT_PX = 160;
/**
 * Where opening a conversation puts the cursor in the field: a wide screen with a mouse or
 * touchpad. Not on phones and tablets, where the keyboard would open and cover the chat.
 */
const TYPING_SCREEN = "(min-width: 1024px) and (pointer: fine)";

interface ComposerProps {
  /** Opens the Upload File dialog. */
  onAttach: () => void;
  onSend: (
    content: string,
    callbacks: { onError: (error: unknown) => void },
    visibility?: "internal",
  ) => void;
  sending: boolean;
  disabled?: boolean;
  placeholder: string;
  /**
   * The staff's composer (issue 26): "Reply | Internal note" above the field; a note goes to
   * the team only. Never in the portal.
   */
  notes?: boolean;
  /** A keystroke that changed the text (the staff's presence: "Sam is typing…"). */
  onTyping?: () => void;
  /** The staff's saved replies (issue 28): `/` opens them for this conversation. */
  picker?: { usePicker: UseComposerPicker; clientId: string };
  /** Scheduled send (issue 28): "Send later" beside Send; rejects when it was refused. */
  onSchedule?: (content: string, at: Date, visibility?: "internal") => Promise<void>;
}

type Mode = "reply" | "note";

/** Spec section 5: blank or whitespace-only text cannot be sent; Enter sends, Shift+Enter is a new line. */
export function Composer({
  onAttach,
  onSend,
  sending,
  disabled = false,
  placeholder,
  notes = false,
  onTyping,
  picker,
  onSchedule,
}: ComposerProps) {
  const { t } = useTranslation("conversation");
  const [text, setText] = useState("");
  const [mode, setMode] = useState<Mode>("reply");
  const note = notes && mode === "note";
  const fieldRef = useRef<HTMLTextAreaElement>(null);
  const hintId = useId();
  const toast = useToast();
  const blank = text.trim().length === 0;
  const usePicker = picker?.usePicker ?? useNoPicker;
  const slash = usePicker({ clientId: picker?.clientId ?? "", text, setText, field: fieldRef });

  // Once, when the conversation opens; never away from a dialog that holds the focus.
  useEffect(() => {
    if (!window.matchMedia(TYPING_SCREEN).matches) return;
    if (document.activeElement?.closest('[role="dialog"], [role="alertdialog"]')) return;
    fieldRef.current?.focus({ preventScroll: true });
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the height follows the text
  useLayoutEffect(() => {
    const field = fieldRef.current;
    if (!field) return;
    field.style.height = "auto";
    field.style.height = `${Math.min(field.scrollHeight, MAX_FIELD_HEIGHT_PX)}px`;
  }, [text]);

  const send = () => {
    const content = text.trim();
    if (!content || disabled) return;
    // Cleared at once so the next message can be typed; put back if sending fails.
    setText("");
    onSend(
      content,
      {
        onError: (error) => {
          setText((current) => (current === "" ? content : current));
          toast({
            title: note ? t("Failed to save note") : t("Failed to send message"),
            description: serverMessage(error, t("Please try again")),
            variant: "destructive",
          });
        },
      },
      note ? "internal" : undefined,
    );
  };

  const schedule = async (at: Date): Promise<boolean> => {
    const content = text.trim();
    if (!content || disabled || !onSchedule) return false;
    setText("");
    try {
      await onSchedule(content, at, note ? "internal" : undefined);
      return true;
    } catch (error) {
      setText((current) => (current === "" ? content : current));
      toast({
        title: t("Failed to schedule"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      });
      return false;
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.onKeyDown(event)) return;
    // Enter while an input method is composing (e.g. Japanese) confirms the text, not sends.
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  const chooseMode = (next: Mode) => {
    setMode(next);
    fieldRef.current?.focus({ preventScroll: true });
  };

  return (
    <form className={`composer${note ? " composer--note" : ""}`} onSubmit={onSubmit}>
      {notes && (
        <div className="composer__modes">
          {/* Two pressed-state buttons: Tab reaches both, Enter or Space picks one. */}
          <fieldset className="composer__mode-group">
            <legend className="visually-hidden">{t("Write")}</legend>
            <button
              type="button"
              className="composer__mode"
              aria-pressed={!note}
              onClick={() => chooseMode("reply")}
            >
              {t("Reply")}
            </button>
            <button
              type="button"
              className="composer__mode composer__mode--note"
              aria-pressed={note}
              onClick={() => chooseMode("note")}
            >
              <LockIcon />
              {t("Internal note")}
            </button>
          </fieldset>
          {note && (
            <p className="composer__note-hint" id={`${hintId}-note`}>
              {t("Only your team sees this")}
            </p>
          )}
        </div>
      )}
      <Button
        variant="ghost"
        size="icon"
        className="composer__attach"
        aria-label={t("Upload File")}
        title={t("Upload File")}
        disabled={disabled}
        onClick={onAttach}
      >
        <UploadIcon />
      </Button>
      <label className="visually-hidden" htmlFor={`${hintId}-field`}>
        {note ? t("Internal note") : t("Message")}
      </label>
      <textarea
        {...slash.fieldProps}
        ref={fieldRef}
        id={`${hintId}-field`}
        className="composer__field"
        rows={1}
        value={text}
        maxLength={MESSAGE_MAX_LENGTH}
        placeholder={note ? t("Write an internal note") : placeholder}
        aria-describedby={note ? `${hintId}-note ${hintId}` : hintId}
        disabled={disabled}
        onChange={(event) => {
          setText(event.target.value);
          // Emptying the field is not typing a reply.
          if (event.target.value.trim()) onTyping?.();
        }}
        onKeyDown={onKeyDown}
      />
      {slash.popup}
      <p id={hintId} className="visually-hidden">
        {t("Enter sends, Shift+Enter starts a new line.")}
        {slash.hint && ` ${slash.hint}`}
      </p>
      <Button
        type="submit"
        size="icon"
        className="composer__send"
        aria-label={note ? t("Save internal note") : t("Send message")}
        title={note ? t("Save note (Enter)") : t("Send (Enter)")}
        disabled={blank || disabled}
        aria-busy={sending || undefined}
      >
        <SendIcon />
      </Button>
      {onSchedule && (
        <SendLaterMenu
          disabled={blank || disabled}
          onSchedule={schedule}
          focusComposer={() => fieldRef.current?.focus({ preventScroll: true })}
        />
      )}
    </form>
  );
}
