import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { serverMessage } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { Button } from "../ui/button";
import { Input } from "../ui/input";
import { useToast } from "../ui/toast";
import { changeDueDate } from "./due-dates-api";
import { replaceMessage } from "./messages-query";

export interface DueDateEditorProps {
  messageId: string;
  clientId: string;
  dueDate: string | null;
  /** YYYY-MM-DD in the viewer's zone: the earliest date offered. */
  today: string;
  onDone: () => void;
}

/** The staff's form to set, change or clear a file's due date (loaded when opened). */
export default function DueDateEditor({
  messageId,
  clientId,
  dueDate,
  today,
  onDone,
}: DueDateEditorProps) {
  const { t } = useTranslation("conversation");
  const toast = useToast();
  const queryClient = useQueryClient();
  const fieldId = useId();
  const [value, setValue] = useState(dueDate ?? "");
  const save = useMutation({
    mutationFn: (next: string | null) => changeDueDate(messageId, next),
    onSuccess: (message, next) => {
      replaceMessage(queryClient, clientId, message);
      toast({ title: next ? t("Due date saved") : t("Due date cleared"), variant: "success" });
      onDone();
    },
    onError: (error) => {
      toast({
        title: t("Failed to change the due date"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      });
    },
    onSettled: () => {
      // Every version of the file shows the thread's date, the history and the files tab too.
      void queryClient.invalidateQueries({ queryKey: queryKeys.messages(clientId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.attachments(clientId) });
    },
  });
  return (
    <form
      className="due-date__form"
      onKeyDown={(event) => {
        if (event.key === "Escape" && !save.isPending) onDone();
      }}
      onSubmit={(event) => {
        event.preventDefault();
        if (value) save.mutate(value);
      }}
    >
      <label className="due-date__label" htmlFor={fieldId}>
        {t("Due date")}
      </label>
      <Input
        id={fieldId}
        className="due-date__input"
        type="date"
        min={today}
        required
        value={value}
        disabled={save.isPending}
        onChange={(event) => setValue(event.target.value)}
        autoFocus
      />
      <div className="due-date__buttons">
        <Button type="submit" size="sm" loading={save.isPending && save.variables !== null}>
          {t("Save")}
        </Button>
        {dueDate && (
          <Button
            variant="secondary"
            size="sm"
            disabled={save.isPending}
            onClick={() => save.mutate(null)}
          >
            {t("Clear due date")}
          </Button>
        )}
        <Button variant="ghost" size="sm" disabled={save.isPending} onClick={onDone}>
          {t("Cancel")}
        </Button>
      </div>
    </form>
  );
}
