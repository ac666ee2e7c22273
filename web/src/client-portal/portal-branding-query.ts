import { useQuery } from "@tanstack/react-query";
import type { CSSProperties } from "react";
import { DEFAULT_COLORS, DEFAULT_SHADES } from "../../../shared/defaults";
import type { BrandShades } from "../../../shared/contrast";
import type { PortalBranding } from "../../../shared/schemas/branding";
import { apiGet } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { useInviteLanguage } from "../i18n/invite-language";

/** What names the conversation on a signed-out page: its id, an invite token or a short code. */
export type BrandingLookup = { client: string } | { invite: string } | { code: string } | null;

export const DEFAULT_BRANDING: PortalBranding = {
  branded: false,
  companyName: null,
  companyLogo: null,
  ...DEFAULT_COLORS,
  shades: DEFAULT_SHADES,
  language: null,
};

function queryOf(lookup: BrandingLookup): string {
  if (!lookup) return "";
  const [[name, value] = ["", ""]] = Object.entries(lookup);
  return new URLSearchParams({ [name]: value }).toString();
}

/**
 * GET /api/portal-branding: the owner's branding for pages shown before sign-in (defaults
 * while it loads, when nothing names the conversation, and when it cannot be had).
 */
export function usePortalBranding(lookup: BrandingLookup): PortalBranding {
  const query = queryOf(lookup);
  const answer = useQuery({
    queryKey: queryKeys.portalBranding(query),
    queryFn: () => apiGet<PortalBranding>(`/api/portal-branding?${query}`),
    enabled: query !== "",
    staleTime: 5 * 60_000,
    retry: 1,
  });
  useInviteLanguage(lookup, answer.data?.language);
  return answer.data ?? DEFAULT_BRANDING;
}

/**
 * The portal's colours as the theme's variables (portal.css derives the rest from these). Fills
 * and primary text use shades that stay readable with any chosen colour (WCAG AA), which the
 * server works out (shared/contrast.ts) and sends with the colours.
 */
export function brandColors(scheme: {
  primaryColor: string;
  backgroundColor: string;
  textColor: string;
  shades: BrandShades;
}): CSSProperties {
  const { shades } = scheme;
  return {
    "--brand-primary": scheme.primaryColor,
    "--brand-primary-strong": shades.primaryStrong,
    "--brand-primary-text": shades.primaryText,
    "--brand-text-muted": shades.textMuted,
    "--brand-text-subtle": shades.textSubtle,
    "--brand-background": scheme.backgroundColor,
    "--brand-text": scheme.textColor,
  } as CSSProperties;
}
