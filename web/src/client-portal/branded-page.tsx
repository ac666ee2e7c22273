import type { ReactNode } from "react";
import { BrandMark } from "./brand-mark";
import { PortalFooter } from "./portal-footer";
import { type BrandingLookup, brandColors, usePortalBranding } from "./portal-branding-query";

interface BrandedPageProps {
  /** What names the conversation, for its owner's branding (defaults when null). */
  lookup: BrandingLookup;
  title: string;
  text?: ReactNode;
  children?: ReactNode;
}

/**
 * A page a client sees before signing in (signed out, a used link, a sign-in link): in the
 * owner's colours, with their logo or company name when their plan brands the portal.
 */
export function BrandedPage({ lookup, title, text, children }: BrandedPageProps) {
  const branding = usePortalBranding(lookup);
  return (
    <div className="portal portal--branded branded-page" style={brandColors(branding)}>
      <main className="branded-page__main">
        <div className="branded-page__brand">
          <BrandMark
            logo={branding.companyLogo}
            companyName={branding.branded ? branding.companyName : null}
          />
        </div>
        <section className="branded-page__card" aria-labelledby="branded-page-title">
          <h1 id="branded-page-title" className="branded-page__title">
            {title}
          </h1>
          {text && <p className="branded-page__text">{text}</p>}
          {children}
        </section>
      </main>
      <PortalFooter />
    </div>
  );
}
