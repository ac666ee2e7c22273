import { readFileSync } from "node:fs";
import { i18n } from "../../web/src/i18n/i18n";

/**
 * Starts the web's i18next in English with the given catalogs, for unit tests of code that
 * translates outside React (the pages start it with startI18n, which needs a browser).
 */
export async function startEnglish(namespaces: readonly string[]): Promise<void> {
  const catalogs = Object.fromEntries(
    namespaces.map((namespace) => [
      namespace,
      JSON.parse(
        readFileSync(new URL(`../../shared/locales/en/${namespace}.json`, import.meta.url), "utf8"),
      ),
    ]),
  );
  await i18n.init({
    lng: "en",
    ns: [...namespaces],
    resources: { en: catalogs },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
  });
}
