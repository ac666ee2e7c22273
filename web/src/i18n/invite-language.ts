import { useEffect } from "react";
import type { Language } from "../../../shared/i18n/languages";
import { adoptServerLanguage } from "./i18n";

/**
 * An invite page (or a short link's) speaks its client's language (issue 29): the one the
 * portal branding names for an invite token or code. A page named by client id belongs to
 * someone who may have picked their own, which their signed-in data brings instead.
 */
export function useInviteLanguage(lookup: object | null, language: Language | null | undefined) {
  const invite = lookup !== null && ("invite" in lookup || "code" in lookup);
  useEffect(() => {
    if (invite && language) void adoptServerLanguage(language);
  }, [invite, language]);
}
