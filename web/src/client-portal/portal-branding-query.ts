import { useQuery } from "@tanstack/react-query";
import type { CSSProperties } from "react";
import { brandShades } from "../../../shared/contrast";
import { DEFAULT_COLORS } from "../../../shared/defaults";
import type { PortalBranding } from "../../../shared/schemas/branding";
import { apiGet } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { toHexColor } from "../ui/css-color";
import { useInviteLanguage } from "../i18n/invite-language";

/** What names the conversation on a signed-out page: its id, an invite token or a short code. */
export type BrandingLookup = { client: string } | { invite: string } | { code: string } | null;

export const DEFAULT_BRANDING: PortalBranding = {
  branded: false,
  companyName: null,
  companyLogo: null,
  ...DEFAULT_COLORS,
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
 * and primary text use shades that stay readable with any chosen colour (WCAG AA).
 */
export function brandColors(colors: {
  primaryColor: string;
  backgroundColor: string;
  textColor: string;
}): CSSProperties {
  const shades = brandShades({
    primaryColor: toHexColor(colors.primaryColor) ?? colors.primaryColor,
    backgroundColor: toHexColor(colors.backgroundColor) ?? colors.backgroundColor,
    textColor: toHexColor(colors.textColor) ?? colors.textColor,
  });
  return {
    "--brand-primary": colors.primaryColor,
    "--brand-primary-strong": shades.primaryStrong,
    "--brand-primary-text": shades.primaryText,
    "--brand-text-muted": shades.textMuted,
    "--brand-text-subtle": shades.textSubtle,
    "--brand-background": colors.backgroundColor,
    "--brand-text": colors.textColor,
  } as CSSProperties;
}
