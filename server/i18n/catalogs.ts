// The server's catalogs, bundled with it (scripts/build.mjs): every email and every {message}.
// shared/locales is written by `npm run i18n:extract` and checked by `npm run i18n:check`.
import enErrors from "../../shared/locales/en/errors.json";
import enEmails from "../../shared/locales/en/emails.json";
import deErrors from "../../shared/locales/de/errors.json";
import deEmails from "../../shared/locales/de/emails.json";
import frErrors from "../../shared/locales/fr/errors.json";
import frEmails from "../../shared/locales/fr/emails.json";
import esErrors from "../../shared/locales/es/errors.json";
import esEmails from "../../shared/locales/es/emails.json";
import ptBRErrors from "../../shared/locales/pt-BR/errors.json";
import ptBREmails from "../../shared/locales/pt-BR/emails.json";
import type { Language } from "../../shared/i18n/languages";

export type ServerNamespace = "errors" | "emails";

export const SERVER_CATALOGS: Record<Language, Record<ServerNamespace, Record<string, string>>> = {
  en: { errors: enErrors, emails: enEmails },
  de: { errors: deErrors, emails: deEmails },
  fr: { errors: frErrors, emails: frEmails },
  es: { errors: esErrors, emails: esEmails },
  "pt-BR": { errors: ptBRErrors, emails: ptBREmails },
};
