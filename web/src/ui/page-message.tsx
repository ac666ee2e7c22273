import type { ReactNode } from "react";
import { Logo } from "./logo";
import "./page-message.css";

interface PageMessageProps {
  title: string;
  text?: ReactNode;
  /** A large line above the title, e.g. "404". */
  code?: string;
  actions?: ReactNode;
  /** Anything more below the actions, e.g. a small form. */
  children?: ReactNode;
}

/** A whole-page message: not found, an error, or a state the user cannot go on from. */
export function PageMessage({ title, text, code, actions, children }: PageMessageProps) {
  return (
    <main className="page-message">
      <div className="page-message__logo">
        <Logo />
      </div>
      {code && <p className="page-message__code">{code}</p>}
      <h1 className="page-message__title">{title}</h1>
      {text && <p className="page-message__text">{text}</p>}
      {actions && <div className="page-message__actions">{actions}</div>}
      {children}
    </main>
  );
}
