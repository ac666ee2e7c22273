import type { Language } from "../../../shared/i18n/languages";
import { i18n } from "../i18n/i18n";

// Every language's conversation catalog, read at once: a unit test has no page to load them.
const catalogs = import.meta.glob<Record<string, string>>(
  "../../../shared/locales/*/conversation.json",
  { import: "default", eager: true },
);

/**
 * For unit tests (vitest, no browser): the web's i18n instance in `language` with the
 * conversation's catalogs, as startI18n sets it up for a page.
 */
export async function startTestLanguage(language: Language = "en"): Promise<void> {
  const resources = Object.fromEntries(
    Object.entries(catalogs).map(([path, catalog]) => [
      path.split("/").at(-2),
      { conversation: catalog },
    ]),
  );
  if (!i18n.isInitialized)
    await i18n.init({
      lng: language,
      fallbackLng: "en",
      resources,
      ns: ["conversation"],
      defaultNS: "conversation",
      keySeparator: false,
      nsSeparator: false,
      returnEmptyString: false,
      interpolation: { escapeValue: false },
    });
  await i18n.changeLanguage(language);
}
