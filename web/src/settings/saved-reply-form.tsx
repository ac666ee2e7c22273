import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useTranslation } from "react-i18next";
import { MESSAGE_MAX_LENGTH } from "../../../shared/message-limits";
import { SAVED_REPLY_VARIABLES } from "../../../shared/saved-reply-variables";
import { ApiError, serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import {
  createSavedReply,
  type SavedReply,
  type SavedReplyFields,
  updateSavedReply,
} from "../api/saved-replies";
import { Button } from "../ui/button";
import { Field, TextField } from "../ui/field";
import { useToast } from "../ui/toast";
import { useVariableTexts } from "./saved-reply-variable-texts";

interface SavedReplyFormProps {
  /** The reply to edit; a new one when absent. */
  reply?: SavedReply;
  onDone: () => void;
}

type Errors = Partial<Record<keyof SavedReplyFields, string>>;

/** Adds or edits a saved reply; a variable's button puts it where the cursor is in the text. */
export function SavedReplyForm({ reply, onDone }: SavedReplyFormProps) {
  const { t } = useTranslation("settings");
  const variableTexts = useVariableTexts();
  const [title, setTitle] = useState(reply?.title ?? "");
  const [text, setText] = useState(reply?.text ?? "");
  const [errors, setErrors] = useState<Errors>({});
  const textRef = useRef<HTMLTextAreaElement>(null);
  const headingId = useId();
  const queryClient = useQueryClient();
  const toast = useToast();

  const save = useMutation({
    mutationFn: (fields: SavedReplyFields) =>
      reply ? updateSavedReply(reply.id, fields) : createSavedReply(fields),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.savedReplies });
      toast({
        title: reply ? t("Saved reply updated") : t("Saved reply added"),
        description: saved.title,
        variant: "success",
      });
      onDone();
    },
    onError: (error) => {
      // A title already taken is the title's problem: said beside it.
      if (error instanceof ApiError && error.status === 409) {
        setErrors({ title: error.message });
        return;
      }
      toast({
        title: t("Could not save the saved reply"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const fields = { title: title.trim(), text: text.trim() };
    const found: Errors = {
      ...(fields.title ? {} : { title: t("Title is required") }),
      ...(fields.text ? {} : { text: t("Text is required") }),
    };
    setErrors(found);
    if (found.title || found.text) return;
    save.mutate(fields);
  };

  const insertVariable = (name: string) => {
    const field = textRef.current;
    const token = `{${name}}`;
    const start = field?.selectionStart ?? text.length;
    const end = field?.selectionEnd ?? text.length;
    const next = `${text.slice(0, start)}${token}${text.slice(end)}`;
    // Rendered at once, so that the focus is back in the text before the next key.
    flushSync(() => {
      setText(next);
      setErrors(({ text: _fixed, ...rest }) => rest);
    });
    field?.focus();
    field?.setSelectionRange(start + token.length, start + token.length);
  };

  return (
    <form className="saved-reply-form" onSubmit={submit} aria-labelledby={headingId} noValidate>
      <h4 id={headingId} className="saved-reply-form__title">
        {reply ? t("Edit “{{title}}”", { title: reply.title }) : t("New saved reply")}
      </h4>
      <TextField
        label={t("Title")}
        value={title}
        maxLength={100}
        autoFocus
        autoComplete="off"
        placeholder={t("e.g. Invoice sent")}
        hint={t("What you type after / to find it.")}
        error={errors.title}
        onChange={(event) => {
          setTitle(event.target.value);
          setErrors(({ title: _fixed, ...rest }) => rest);
        }}
      />
      <Field label={t("Text")} error={errors.text}>
        {(control) => (
          <textarea
            {...control}
            ref={textRef}
            className="input saved-reply-form__text"
            rows={5}
            maxLength={MESSAGE_MAX_LENGTH}
            value={text}
            placeholder={t("Hi {client.firstName}, …")}
            onChange={(event) => {
              setText(event.target.value);
              setErrors(({ text: _fixed, ...rest }) => rest);
            }}
          />
        )}
      </Field>
      <fieldset className="saved-reply-form__variables">
        <legend className="saved-reply-form__legend">{t("Insert a variable")}</legend>
        {SAVED_REPLY_VARIABLES.map((variable) => (
          <Button
            key={variable.name}
            variant="secondary"
            size="sm"
            title={variableTexts[variable.name].filledIn}
            onClick={() => insertVariable(variable.name)}
          >
            {`{${variable.name}}`}
          </Button>
        ))}
      </fieldset>
      <div className="saved-reply-form__actions">
        <Button variant="secondary" onClick={onDone} disabled={save.isPending}>
          {t("Cancel")}
        </Button>
        <Button type="submit" loading={save.isPending}>
          {save.isPending ? t("Saving…") : reply ? t("Save changes") : t("Add saved reply")}
        </Button>
      </div>
    </form>
  );
}
