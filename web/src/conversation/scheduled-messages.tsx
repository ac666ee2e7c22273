import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, serverMessage } from "../api/client";
import { useCurrentUser } from "../api/current-user";
import { Button } from "../ui/button";
import { Dialog, DialogClose, DialogFooter } from "../ui/dialog";
import { ClockIcon, LockIcon } from "../ui/icons";
import { useToast } from "../ui/toast";
import { ScheduleDialog } from "./schedule-dialog";
import { type ScheduledMessage, useScheduledActions, useScheduledMessages } from "./scheduled-api";
import { formatWhen } from "./send-later-times";
import "./scheduled.css";

/**
 * Above the composer: "Scheduled (2)", the side's messages waiting for their time, soonest
 * first, each with its time and text; its author may Edit it or Send now, anyone of the side
 * may Cancel it (after a confirmation). Nothing shows while there are none. `ready`: the
 * conversation's messages are shown (the list loads after them).
 */
export function ScheduledMessages({ clientId, ready }: { clientId: string; ready: boolean }) {
  const { t } = useTranslation("conversation");
  const painted = useAfterPaint(ready);
  const listId = useId();
  const toast = useToast();
  const viewerId = useCurrentUser().data?.id;
  const { data, error, refetch } = useScheduledMessages(clientId, painted);
  const actions = useScheduledActions(clientId);
  const [expanded, setExpanded] = useState(true);
  const [editing, setEditing] = useState<ScheduledMessage | null>(null);
  const [cancelling, setCancelling] = useState<ScheduledMessage | null>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  /** After a message left the list, its buttons are gone: the focus goes to the list's toggle. */
  const cancelledRef = useRef(false);
  const focusList = (event: Event) => {
    if (!cancelledRef.current || !toggleRef.current) return;
    cancelledRef.current = false;
    event.preventDefault();
    toggleRef.current.focus();
  };

  const failed = (title: string) => (error: unknown) =>
    toast({
      title,
      description: serverMessage(error, t("Please try again")),
      variant: "destructive",
    });

  // Unreachable (no answer): the connection banner says so, and the catch-up refetches the
  // list once the server is back. Only an answer that refused is this list's own error.
  if (error instanceof ApiError)
    return (
      <div className="scheduled scheduled--error" role="alert">
        <p>{t("We couldn't load the scheduled messages.")}</p>
        <Button variant="secondary" size="sm" onClick={() => void refetch()}>
          {t("Try again")}
        </Button>
      </div>
    );
  if (!data || data.length === 0) return null;

  return (
    <section className="scheduled" aria-label={t("Scheduled messages")}>
      <button
        ref={toggleRef}
        type="button"
        className="scheduled__toggle"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => setExpanded((was) => !was)}
      >
        <ClockIcon />
        {t("Scheduled ({{total}})", { total: data.length })}
        <span className="scheduled__chevron" aria-hidden="true" />
      </button>
      <ul id={listId} className="scheduled__list" hidden={!expanded}>
        {data.map((message) => (
          <ScheduledItem
            key={message.id}
            message={message}
            mine={message.author.id === viewerId}
            sending={actions.sendNow.isPending && actions.sendNow.variables === message.id}
            onEdit={() => setEditing(message)}
            onSendNow={() =>
              actions.sendNow.mutate(message.id, {
                onSuccess: () => toast({ title: t("Message sent"), variant: "success" }),
                onError: failed(t("Failed to send the message")),
              })
            }
            onCancel={() => setCancelling(message)}
          />
        ))}
      </ul>
      {editing && (
        <ScheduleDialog
          open
          onOpenChange={(open) => !open && setEditing(null)}
          title={t("Edit scheduled message")}
          initialAt={new Date(editing.sendAt)}
          initialContent={editing.content}
          submitLabel={t("Save")}
          busy={actions.edit.isPending}
          onSubmit={(at, content) =>
            actions.edit.mutate(
              { id: editing.id, content: content ?? editing.content, sendAt: at.toISOString() },
              {
                onSuccess: (saved) => {
                  setEditing(null);
                  toast({
                    title: t("Scheduled message saved"),
                    description: t("It will be sent {{when}}.", { when: formatWhen(saved.sendAt) }),
                    variant: "success",
                  });
                },
                onError: failed(t("Failed to save the scheduled message")),
              },
            )
          }
        />
      )}
      <Dialog
        open={cancelling !== null}
        onOpenChange={(open) => !open && !actions.cancel.isPending && setCancelling(null)}
        title={t("Cancel this scheduled message?")}
        onCloseAutoFocus={focusList}
      >
        <p className="confirm-dialog__text">
          {cancelling
            ? t("It will not be sent ({{when}}). This cannot be undone.", {
                when: formatWhen(cancelling.sendAt),
              })
            : t("It will not be sent. This cannot be undone.")}
        </p>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="secondary" disabled={actions.cancel.isPending}>
              {t("Keep it")}
            </Button>
          </DialogClose>
          <Button
            variant="danger"
            loading={actions.cancel.isPending}
            onClick={() =>
              cancelling &&
              actions.cancel.mutate(cancelling.id, {
                onSuccess: () => {
                  cancelledRef.current = true;
                  setCancelling(null);
                  toast({ title: t("Scheduled message cancelled"), variant: "success" });
                },
                onError: failed(t("Failed to cancel the message")),
              })
            }
          >
            {actions.cancel.isPending ? t("Cancelling…") : t("Cancel message")}
          </Button>
        </DialogFooter>
      </Dialog>
    </section>
  );
}

/** True from the frame after `ready` was painted: what loads then never delays the first screen. */
function useAfterPaint(ready: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return;
    const frame = requestAnimationFrame(() => setPainted(true));
    return () => cancelAnimationFrame(frame);
  }, [ready, painted]);
  return painted;
}

interface ScheduledItemProps {
  message: ScheduledMessage;
  mine: boolean;
  sending: boolean;
  onEdit: () => void;
  onSendNow: () => void;
  onCancel: () => void;
}

function ScheduledItem({
  message,
  mine,
  sending,
  onEdit,
  onSendNow,
  onCancel,
}: ScheduledItemProps) {
  const { t } = useTranslation("conversation");
  const whenId = useId();
  return (
    <li className="scheduled__item">
      <div className="scheduled__body">
        <p className="scheduled__when" id={whenId}>
          <time dateTime={message.sendAt}>{formatWhen(message.sendAt)}</time>
          {message.visibility === "internal" && (
            <span className="scheduled__note">
              <LockIcon />
              {t("Internal note")}
            </span>
          )}
          {!mine && (
            <span className="scheduled__author">
              {t("by {{name}}", { name: message.author.name })}
            </span>
          )}
        </p>
        <p className="scheduled__text" title={message.content}>
          {message.content}
        </p>
      </div>
      <div className="scheduled__actions">
        {mine && (
          <Button variant="ghost" size="sm" aria-describedby={whenId} onClick={onEdit}>
            {t("Edit")}
          </Button>
        )}
        {mine && (
          <Button
            variant="ghost"
            size="sm"
            aria-describedby={whenId}
            loading={sending}
            onClick={onSendNow}
          >
            {t("Send now")}
          </Button>
        )}
        <Button variant="ghost" size="sm" aria-describedby={whenId} onClick={onCancel}>
          {t("Cancel")}
        </Button>
      </div>
    </li>
  );
}
