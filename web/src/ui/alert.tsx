import type { ReactNode } from "react";
import { AlertIcon } from "./icons";
import "./alert.css";

interface AlertProps {
  title: string;
  children?: ReactNode;
  variant?: "info" | "destructive";
}

/** A message that stays on the page (unlike a toast), announced when it appears. */
export function Alert({ title, children, variant = "info" }: AlertProps) {
  return (
    <div
      className={`alert alert--${variant}`}
      role={variant === "destructive" ? "alert" : "status"}
    >
      <span className="alert__icon">
        <AlertIcon />
      </span>
      <div>
        <p className="alert__title">{title}</p>
        {children && <p>{children}</p>}
      </div>
    </div>
  );
}
