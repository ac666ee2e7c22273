import type { InputHTMLAttributes } from "react";
import "./input.css";

export type InputProps = InputHTMLAttributes<HTMLInputElement> & {
  ref?: React.Ref<HTMLInputElement>;
};

export function Input({ className, ...rest }: InputProps) {
  return <input className={["input", className].filter(Boolean).join(" ")} {...rest} />;
}
