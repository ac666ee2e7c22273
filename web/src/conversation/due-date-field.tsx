import { useTranslation } from "react-i18next";
import { Field } from "../ui/field";
import { Input } from "../ui/input";
import { formatDueDate, useToday } from "./due-date";

export interface DueDateFieldProps {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  /** A new version's thread keeps this date when the field is left empty. */
  kept?: string | null;
}

/** The upload dialog's optional "Due date" of a file sent for approval (issue 27). */
export function DueDateField({ value, onChange, disabled, kept }: DueDateFieldProps) {
  const { t } = useTranslation("conversation");
  const today = useToday();
  const hint = kept
    ? t("Leave it empty to keep {{date}}. Your client is reminded the day before and on the day.", {
        date: formatDueDate(kept, today),
      })
    : t("Optional. Your client is reminded by email the day before and on the day.");
  return (
    <Field label={t("Due date")} hint={hint}>
      {(control) => (
        <Input
          {...control}
          className="upload-dialog__due-date"
          type="date"
          min={today}
          value={value}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
