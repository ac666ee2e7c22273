/**
 * The languages ClientDesk is written in (issue 29). The English text is every key
 * (shared/locales/en holds only what English needs beyond it: plural forms).
 */
export const LANGUAGES = ["en", "de", "fr", "es", "pt-BR"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** Each language named in itself, for pickers (a reader finds their own language by its name). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
  "pt-BR": "Português (Brasil)",
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The supported language closest to a BCP 47 tag: exact (case-insensitive), then by its
 * primary subtag ("de-AT" → de, "pt-PT" → pt-BR, "en-GB" → en); null when none is close.
 */
export function closestLanguage(tag: string): Language | null {
  const wanted = tag.trim().toLowerCase();
  if (!wanted || wanted === "*") return null;
  const exact = LANGUAGES.find((language) => language.toLowerCase() === wanted);
  if (exact) return exact;
  const primary = wanted.split("-")[0];
  return LANGUAGES.find((language) => language.toLowerCase().split("-")[0] === primary) ?? null;
}

/** The best supported language of an Accept-Language header (quality order), or null. */
export function negotiateLanguage(header: string | undefined | null): Language | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag, quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranked) {
    const language = closestLanguage(tag);
    if (language) return language;
  }
  return null;
}
