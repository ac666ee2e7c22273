import { currentLocale } from "./i18n";

/**
 * Dates, times, numbers and prices in the reader's language (issue 29): Intl formatters made
 * once per language and options (making one per call is slow and, for thousands of messages,
 * costly in memory).
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

export function dateTimeFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = currentLocale();
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return format;
}

export function numberFormat(options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const locale = currentLocale();
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

export function relativeTimeFormat(
  options: Intl.RelativeTimeFormatOptions = { numeric: "auto" },
): Intl.RelativeTimeFormat {
  const locale = currentLocale();
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = relativeFormats.get(key);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, options);
    relativeFormats.set(key, format);
  }
  return format;
}

export const formatNumber = (value: number) => numberFormat().format(value);

/** A price in cents of `currency`, whole amounts without decimals ("€12", "12,50 €"). */
export function formatPrice(cents: number, currency = "USD"): string {
  const whole = cents % 100 === 0;
  return numberFormat({
    style: "currency",
    currency: currency.toUpperCase(),
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: whole ? 0 : 2,
  }).format(cents / 100);
}
