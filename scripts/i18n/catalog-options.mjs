// What the three i18next-parser runs share (scripts/i18n/*.config.mjs). The English text is
// the key; English catalogs hold it as its own value (plural forms edited by hand), every
// other language starts empty and scripts/i18n/check.mjs fails while any value is empty.
export const LOCALES = ["en", "de", "fr", "es", "pt-BR"];

export const catalogOptions = {
  locales: LOCALES,
  output: "shared/locales/$LOCALE/$NAMESPACE.json",
  keySeparator: false,
  namespaceSeparator: false,
  contextSeparator: "_",
  pluralSeparator: "_",
  createOldCatalogs: false,
  keepRemoved: false,
  sort: true,
  indentation: 2,
  lineEnding: "lf",
  defaultValue: (locale, _namespace, key) => (locale === "en" ? key : ""),
  verbose: false,
};
