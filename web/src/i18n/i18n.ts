import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import {
  closestLanguage,
  DEFAULT_LANGUAGE,
  isLanguage,
  type Language,
} from "../../../shared/i18n/languages";
import type { PseudoLocale } from "../../../shared/i18n/pseudo-locales";
import { catalogPath, type PageCatalogs } from "./namespaces";
import { activePseudoLocale } from "./pseudo-locale";

/** The web's one i18next instance (react-i18next reads it through I18nextProvider-free init). */
export const i18n = i18next.createInstance();

const LAST_LANGUAGE = "clientdesk.language";

/**
 * The language to start with before the server has said whose page this is: the last one the
 * server named on this device, else the browser's (what it sends as Accept-Language).
 */
function startingLanguage(): Language {
  try {
    const last = localStorage.getItem(LAST_LANGUAGE);
    if (isLanguage(last)) return last;
  } catch {
    // Storage refused (private mode): the browser's language decides.
  }
  for (const tag of navigator.languages ?? [navigator.language]) {
    const language = closestLanguage(tag);
    if (language) return language;
  }
  return DEFAULT_LANGUAGE;
}

let pseudo: PseudoLocale | null = null;

/** i18next's backend: a catalog is one of the page's chunks (none for a language we lack). */
const chunkBackend = (files: PageCatalogs["files"]) => ({
  type: "backend" as const,
  init() {},
  read(
    language: string,
    namespace: string,
    done: (error: unknown, catalog: Record<string, string> | null) => void,
  ) {
    const load = files[catalogPath(language, namespace)];
    (load ? load() : Promise.resolve({})).then(
      (catalog) => done(null, catalog),
      (error: unknown) => done(error, null),
    );
  },
});

/** Loads the page's catalogs in the starting language; the page renders once this resolves. */
export async function startI18n({ namespaces, files }: PageCatalogs): Promise<unknown> {
  pseudo = activePseudoLocale();
  const language = pseudo ? DEFAULT_LANGUAGE : startingLanguage();
  applyToDocument(language);
  if (pseudo) {
    // Only layout checks ask for a pseudo-locale: its code stays out of everyone's first load.
    const { pseudoText } = await import("../../../shared/i18n/pseudo");
    const locale = pseudo;
    i18n.use({
      type: "postProcessor",
      name: "pseudo",
      process: (value: string) => pseudoText(locale, value),
    });
  }
  return i18n
    .use(chunkBackend(files))
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: ["en", "de", "fr", "es", "pt-BR"],
      load: "currentOnly",
      ns: namespaces,
      defaultNS: "common",
      // The English text is the key: "." and ":" are ordinary characters in it.
      keySeparator: false,
      nsSeparator: false,
      returnEmptyString: false,
      postProcess: pseudo ? ["pseudo"] : [],
      interpolation: { escapeValue: false },
      // Catalogs are loaded before the first render: a component never waits for one.
      react: { useSuspense: false },
    })
    .catch(() => undefined);
}

/**
 * Switches to the language the server resolved for this person (their choice, their
 * client's invite language or Accept-Language); remembered for the next start.
 */
export async function adoptServerLanguage(language: string | null | undefined): Promise<void> {
  if (!isLanguage(language) || pseudo) return;
  try {
    localStorage.setItem(LAST_LANGUAGE, language);
  } catch {
    // Not remembered: the next start guesses from the browser again.
  }
  if (i18n.language === language) return;
  await i18n.changeLanguage(language).catch(() => undefined);
  applyToDocument(language);
}

function applyToDocument(language: string) {
  document.documentElement.lang =
    pseudo === "long" ? "en-XA" : pseudo === "rtl" ? "ar-XB" : language;
  document.documentElement.dir = pseudo === "rtl" ? "rtl" : "ltr";
}

/** The BCP 47 locale for Intl: the reader's language (English pseudo-locales format as en). */
export function currentLocale(): string {
  return i18n.resolvedLanguage ?? i18n.language ?? DEFAULT_LANGUAGE;
}
