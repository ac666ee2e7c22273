import { type ReactNode, useId } from "react";
import { Input, type InputProps } from "./input";
import "./field.css";

export interface FieldControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
}

interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  /** Renders the control with the ids that tie it to the label, hint and error. */
  children: (control: FieldControlProps) => ReactNode;
}

/** A label, one control, and an optional hint and error, all tied together for screen readers. */
export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children({
        id,
        ...(describedBy && { "aria-describedby": describedBy }),
        ...(error ? { "aria-invalid": true } : {}),
      })}
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

type TextFieldProps = Omit<InputProps, "id"> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
};

/** The common case: a Field holding one Input. */
export function TextField({ label, hint, error, ...inputProps }: TextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <Input {...inputProps} {...control} />}
    </Field>
  );
}
