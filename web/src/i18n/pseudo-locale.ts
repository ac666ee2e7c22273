import { PSEUDO_LOCALES, type PseudoLocale } from "../../../shared/i18n/pseudo-locales";

const KEY = "clientdesk.pseudo-locale";

/**
 * A pseudo-locale asked for with ?pseudo=long or ?pseudo=rtl (kept for this tab's later
 * pages; ?pseudo=off ends it). Layout checks use it; nobody else sees one.
 */
export function activePseudoLocale(): PseudoLocale | null {
  try {
    const asked = new URLSearchParams(location.search).get("pseudo");
    if (asked === "off") sessionStorage.removeItem(KEY);
    else if (asked && (PSEUDO_LOCALES as readonly string[]).includes(asked))
      sessionStorage.setItem(KEY, asked);
    const kept = sessionStorage.getItem(KEY);
    return kept && (PSEUDO_LOCALES as readonly string[]).includes(kept)
      ? (kept as PseudoLocale)
      : null;
  } catch {
    return null;
  }
}
