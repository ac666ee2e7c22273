import { useTranslation } from "react-i18next";
import "./spinner.css";

interface SpinnerProps {
  size?: "sm" | "md" | "lg";
  /** Read by screen readers; "" when the surrounding text already says what is happening. */
  label?: string;
}

export function Spinner({ size = "md", label }: SpinnerProps) {
  const { t } = useTranslation("common");
  if (label === "") return <span className={`spinner spinner--${size}`} aria-hidden="true" />;
  return (
    <span className={`spinner spinner--${size}`} role="status" aria-label={label ?? t("Loading")} />
  );
}

/** A full-page spinner, used while the signed-in user is being loaded. */
export function CenteredSpinner({ message }: { message?: string }) {
  const { t } = useTranslation("common");
  return (
    <div className="centered-spinner" role="status" aria-live="polite">
      <Spinner size="lg" label="" />
      <span className={message ? undefined : "visually-hidden"}>{message ?? t("Loading")}</span>
    </div>
  );
}
