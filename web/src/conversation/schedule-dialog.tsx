import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { MESSAGE_MAX_LENGTH } from "../../../shared/message-limits";
import { Button } from "../ui/button";
import { Dialog, DialogClose, DialogFooter } from "../ui/dialog";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { fromLocalInput, sendAtProblem, toLocalInput } from "./send-later-times";

interface ScheduleDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** The time the picker starts at. */
  initialAt: Date;
  /** Editing a scheduled message: its text is in the dialog too. */
  initialContent?: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (at: Date, content: string | undefined) => void;
  /** Where the focus goes once closed (else back to what opened it). */
  returnFocus?: () => void;
}

/** The browser's zone, named in the picker's hint ("Europe/Paris"). */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * "Pick date & time" (issue 28): a date-time in the sender's time zone, and for Edit the text.
 * Checked as the server checks it (a minute to a year ahead) before it is sent.
 */
export function ScheduleDialog({
  open,
  onOpenChange,
  title,
  initialAt,
  initialContent,
  submitLabel,
  busy,
  onSubmit,
  returnFocus,
}: ScheduleDialogProps) {
  const { t } = useTranslation("conversation");
  const editing = initialContent !== undefined;
  const textId = useId();
  const [when, setWhen] = useState(() => toLocalInput(initialAt));
  const [content, setContent] = useState(initialContent ?? "");
  const [problem, setProblem] = useState<string>();
  const blank = editing && content.trim() === "";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // React carries events up through the portal: the composer's own form must not send.
    event.stopPropagation();
    const at = fromLocalInput(when);
    const wrong = sendAtProblem(at);
    setProblem(wrong);
    if (wrong || !at || blank) return;
    onSubmit(at, editing ? content.trim() : undefined);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !busy && onOpenChange(next)}
      title={title}
      onCloseAutoFocus={
        returnFocus &&
        ((event) => {
          event.preventDefault();
          returnFocus();
        })
      }
    >
      <form className="form-stack" onSubmit={submit} noValidate>
        {editing && (
          <div className="field">
            <label className="field__label" htmlFor={textId}>
              {t("Message")}
            </label>
            <textarea
              id={textId}
              className="input schedule-dialog__text"
              rows={4}
              maxLength={MESSAGE_MAX_LENGTH}
              value={content}
              disabled={busy}
              onChange={(event) => setContent(event.target.value)}
            />
          </div>
        )}
        <Field
          label={t("Send at")}
          hint={t("In your time zone ({{zone}})", { zone: timeZone() })}
          error={problem}
        >
          {(control) => (
            <Input
              {...control}
              type="datetime-local"
              value={when}
              min={toLocalInput(new Date())}
              required
              disabled={busy}
              onChange={(event) => {
                setWhen(event.target.value);
                setProblem(undefined);
              }}
              autoFocus={!editing}
            />
          )}
        </Field>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="secondary" disabled={busy}>
              {t("Cancel")}
            </Button>
          </DialogClose>
          <Button type="submit" loading={busy} disabled={blank}>
            {submitLabel}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
