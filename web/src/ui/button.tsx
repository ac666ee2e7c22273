import type { ButtonHTMLAttributes, ReactNode, Ref } from "react";
import { Spinner } from "./spinner";
import "./button.css";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger";

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: "sm" | "md" | "lg" | "icon";
  fullWidth?: boolean;
  /** Shows a spinner and disables the button; pass the running label as children. */
  loading?: boolean;
  icon?: ReactNode;
  /** To move focus to the button (React 19 passes refs as props). */
  ref?: Ref<HTMLButtonElement>;
}

export function buttonClassName(
  variant: ButtonVariant = "primary",
  size: ButtonProps["size"] = "md",
  fullWidth = false,
): string {
  return [
    "button",
    `button--${variant}`,
    size !== "md" && `button--${size}`,
    fullWidth && "button--full",
  ]
    .filter(Boolean)
    .join(" ");
}

export function Button({
  variant = "primary",
  size = "md",
  fullWidth = false,
  loading = false,
  icon,
  className,
  disabled,
  type = "button",
  children,
  ...rest
}: ButtonProps) {
  const classes = [buttonClassName(variant, size, fullWidth), className].filter(Boolean).join(" ");
  return (
    <button
      type={type}
      className={classes}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <Spinner size="sm" label="" /> : icon}
      {children}
    </button>
  );
}
