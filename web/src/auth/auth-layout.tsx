import type { ReactNode } from "react";
import { Card } from "../ui/card";
import { Logo } from "../ui/logo";
import "./auth.css";

interface AuthLayoutProps {
  title: string;
  subtitle?: string;
  children: ReactNode;
}

/** The frame of the signed-out pages: logo, a title, and one centred card. */
export function AuthLayout({ title, subtitle, children }: AuthLayoutProps) {
  return (
    <main className="auth-layout">
      <div className="auth-layout__logo">
        <Logo size="lg" />
      </div>
      <div className="auth-layout__intro">
        <h1 className="auth-layout__title">{title}</h1>
        {subtitle && <p className="auth-layout__subtitle">{subtitle}</p>}
      </div>
      <Card className="auth-card">{children}</Card>
    </main>
  );
}
