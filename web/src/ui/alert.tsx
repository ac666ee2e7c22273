import type { ReactNode } from "react";
import { AlertIcon, CheckIcon } from "./notice-icons";
import "./alert.css";

interface AlertProps {
  title: string;
  children?: ReactNode;
  variant?: "info" | "success" | "destructive";
}

/** A message that stays on the page (unlike a toast), announced when it appears. */
export function Alert({ title, children, variant = "info" }: AlertProps) {
  return (
    <div
      className={`alert alert--${variant}`}
      role={variant === "destructive" ? "alert" : "status"}
    >
      <span className="alert__icon">{variant === "success" ? <CheckIcon /> : <AlertIcon />}</span>
      <div>
        <p className="alert__title">{title}</p>
        {children && <p>{children}</p>}
      </div>
    </div>
  );
}
