import { DEFAULT_COLORS, DEFAULT_SHADES } from "../../shared/defaults";
import type { Language } from "../../shared/i18n/languages";
import type { PortalBranding } from "../../shared/schemas/branding";
import type { TierConfig } from "../../shared/tiers";
import type { User } from "../models";
import { shadesOf } from "./brand-shades";

export const publicLogoUrl = (storedName: string) => `/api/portal-branding/logo/${storedName}`;

/** `language`: the named conversation's (issue 29); null when none is named. */
export function defaultPortalBranding(language: Language | null = null): PortalBranding {
  return {
    branded: false,
    companyName: null,
    companyLogo: null,
    ...DEFAULT_COLORS,
    shades: DEFAULT_SHADES,
    language,
  };
}

/** Every field of an owner that a public page may show, listed: no names, no addresses. */
export function presentPortalBranding(
  owner: User,
  tier: TierConfig,
  language: Language,
): PortalBranding {
  const colors = tier.colorCustomization ? owner : DEFAULT_COLORS;
  return {
    branded: true,
    companyName: owner.companyName,
    companyLogo: tier.logoSupport && owner.companyLogo ? publicLogoUrl(owner.companyLogo) : null,
    primaryColor: colors.primaryColor,
    backgroundColor: colors.backgroundColor,
    textColor: colors.textColor,
    shades: shadesOf(colors),
    language,
  };
}
