import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { MoreIcon } from "../ui/notice-icons";
import { useToast } from "../ui/toast";
import { deleteMessage, editMessage } from "./message-changes-api";
import { type Message, replaceMessage } from "./messages-query";
import "./message-actions.css";

interface ActionsProps {
  message: Message;
  clientId: string;
  onEdit: () => void;
  /** Put focus on the button once shown (coming back from the editor). */
  focusOnShow?: boolean;
}

/** The server's copy of a changed message in the list, and the lists that show it again. */
function useChanged(clientId: string) {
  const queryClient = useQueryClient();
  return (message: Message) => {
    replaceMessage(queryClient, clientId, message);
    void queryClient.invalidateQueries({ queryKey: queryKeys.attachments(clientId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.allSearches });
  };
}

/**
 * The "More" button on the viewer's own recent message (issue 28), and its menu: Edit (a
 * message with text) and Delete, which asks first. A menu button: Enter, Space or ArrowDown
 * opens it on its first item, arrows move, Escape closes it back onto the button.
 */
export default function MessageActions({ message, clientId, onEdit, focusOnShow }: ActionsProps) {
  const { t } = useTranslation("conversation");
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const toast = useToast();
  const changed = useChanged(clientId);
  const remove = useMutation({
    mutationFn: () => deleteMessage(message.id),
    onSuccess: (deleted) => {
      setConfirming(false);
      changed(deleted);
    },
    onError: (error) =>
      toast({
        title: t("Failed to delete message"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  useEffect(() => {
    if (focusOnShow) button.current?.focus();
  }, [focusOnShow]);
  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const closeOutside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOutside);
    return () => document.removeEventListener("pointerdown", closeOutside);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onMenuKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const step = { ArrowDown: 1, ArrowUp: -1 }[event.key];
    if (step !== undefined) {
      event.preventDefault();
      items[(at + step + items.length) % items.length]?.focus();
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      items[event.key === "Home" ? 0 : items.length - 1]?.focus();
    } else if (event.key === "Escape") {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === "Tab") {
      setOpen(false);
    }
  };

  return (
    <div className={`message-actions${open ? " message-actions--open" : ""}`}>
      <button
        ref={button}
        type="button"
        className="message-actions__toggle"
        aria-label={t("Message actions")}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={(event) => {
          if (event.key !== "ArrowDown") return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        <MoreIcon />
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={t("Message actions")}
          className="message-actions__menu"
          onKeyDown={onMenuKey}
        >
          {message.content !== null && (
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className="message-actions__item"
              onClick={() => {
                setOpen(false);
                onEdit();
              }}
            >
              {t("Edit")}
            </button>
          )}
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className="message-actions__item message-actions__item--danger"
            onClick={() => {
              setOpen(false);
              setConfirming(true);
            }}
          >
            {t("Delete")}
          </button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t("Delete message?")}
        confirmLabel={t("Delete")}
        busyLabel={t("Deleting...")}
        busy={remove.isPending}
        destructive
        onConfirm={() => remove.mutate()}
      >
        {message.fileUrl
          ? t("The file will be removed for everyone in this conversation. This can't be undone.")
          : t(
              "The message will be removed for everyone in this conversation. This can't be undone.",
            )}
      </ConfirmDialog>
    </div>
  );
}

interface EditorProps {
  message: Message;
  clientId: string;
  /** Saved or cancelled: the message shows again. */
  onDone: () => void;
}

/** The inline editor of one's own message: Enter saves, Shift+Enter a new line, Escape cancels. */
export function MessageEditor({ message, clientId, onDone }: EditorProps) {
  const { t } = useTranslation("conversation");
  const [text, setText] = useState(message.content ?? "");
  const field = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const toast = useToast();
  const changed = useChanged(clientId);
  const save = useMutation({
    mutationFn: () => editMessage(message.id, text),
    onSuccess: (edited) => {
      changed(edited);
      onDone();
    },
    onError: (error) =>
      toast({
        title: t("Failed to edit message"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });
  const blank = text.trim() === "";
  const submit = () => {
    if (blank || save.isPending) return;
    if (text.trim() === message.content) onDone();
    else save.mutate();
  };

  useEffect(() => {
    const element = field.current;
    element?.focus();
    element?.setSelectionRange(element.value.length, element.value.length);
  }, []);

  return (
    <form
      className="message-editor"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label className="visually-hidden" htmlFor={`${id}-field`}>
        {t("Edit message")}
      </label>
      <textarea
        ref={field}
        id={`${id}-field`}
        className="message-editor__field"
        dir="auto"
        rows={Math.min(6, Math.max(2, text.split("\n").length))}
        value={text}
        aria-describedby={`${id}-hint`}
        aria-invalid={blank || undefined}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.preventDefault();
            event.stopPropagation();
            onDone();
          } else if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <div className="message-editor__footer">
        <p id={`${id}-hint`} className="message-editor__hint">
          {t("Enter to save · Esc to cancel")}
        </p>
        <Button variant="ghost" size="sm" onClick={onDone} disabled={save.isPending}>
          {t("Cancel")}
        </Button>
        <Button type="submit" size="sm" loading={save.isPending} disabled={blank}>
          {t("Save")}
        </Button>
      </div>
    </form>
  );
}
