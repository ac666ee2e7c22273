import i18next, { type TFunction } from "i18next";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "../../shared/i18n/languages";
import { SERVER_CATALOGS, type ServerNamespace } from "./catalogs";

/**
 * The server's i18next (issue 29): the same catalogs as the web's, the English text as the
 * key. Emails are written in their recipient's language, a {message} in the reader's.
 */
const serverI18n = i18next.createInstance();
void serverI18n.init({
  resources: SERVER_CATALOGS,
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  ns: ["errors", "emails"],
  defaultNS: "errors",
  keySeparator: false,
  nsSeparator: false,
  returnEmptyString: false,
  // Texts go out as JSON or through the mail layout, which escapes what it puts in HTML.
  interpolation: { escapeValue: false },
  initAsync: false,
});

export type Translate = TFunction;
export type MessageValues = Record<string, string | number>;

/** A `t` that writes in `language`, in one namespace (a mail module's, or errors). */
export function translatorFor(language: Language, namespace: ServerNamespace): Translate {
  return serverI18n.getFixedT(language, namespace);
}

/**
 * An English text (a key of the errors catalog) in `language`, its {{values}} filled in.
 * Numbers are written as the reader writes them (10,000 in English, 10.000 in German); a
 * `count` also picks the plural form.
 */
export function translateMessage(
  language: Language,
  message: string,
  values: MessageValues = {},
): string {
  const numbers = new Intl.NumberFormat(language);
  const replace = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      typeof value === "number" ? numbers.format(value) : value,
    ]),
  );
  const count = typeof values.count === "number" ? { count: values.count } : {};
  return serverI18n.t(message, { lng: language, ns: "errors", replace, ...count }) as string;
}
