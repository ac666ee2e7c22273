import type { Language } from "../../shared/i18n/languages";
import { DEFAULT_TIME_ZONE, isKnownTimeZone } from "../../shared/due-dates";
import type { Translate } from "../i18n/translator";

/**
 * Dates, times, prices and sizes as an email's recipient reads them (issue 29): Intl in their
 * language, times in their time zone (users.time_zone; UTC when unknown), the zone named after
 * the time since a mail is read anywhere. Formatters are made per mail, never at module load.
 */
export interface MailFormats {
  /** "Dec 7, 2026, 5:29 AM UTC". */
  dateTime(date: Date): string;
  /** "2026-12-08 05:29 UTC": ISO date and 24-hour time, unambiguous in every language. */
  isoDateTime(date: Date): string;
  /** A calendar date (YYYY-MM-DD) written out: "Thursday, December 3, 2026". */
  longDate(day: string): string;
  /** "$10.00", "10,00 €". */
  price(cents: number, currency: string): string;
  /** "1.5 MB", "1,5 Mo". */
  fileSize(bytes: number): string;
}

export function mailFormats(
  language: Language,
  timeZone: string | null | undefined,
  t: Translate,
): MailFormats {
  const zone = timeZone && isKnownTimeZone(timeZone) ? timeZone : DEFAULT_TIME_ZONE;
  const zoneName = (date: Date) =>
    new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName: "short" })
      .formatToParts(date)
      .find((part) => part.type === "timeZoneName")?.value ?? zone;
  return {
    dateTime: (date) =>
      `${new Intl.DateTimeFormat(language, { dateStyle: "medium", timeStyle: "short", timeZone: zone }).format(date)} ${zoneName(date)}`,
    isoDateTime: (date) => {
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat("en-US", {
          timeZone: zone,
          year: "numeric",
          month: "2-digit",
          day: "2-digit",
          hour: "2-digit",
          minute: "2-digit",
          hourCycle: "h23",
        })
          .formatToParts(date)
          .map((part) => [part.type, part.value]),
      );
      return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute} ${zoneName(date)}`;
    },
    longDate: (day) =>
      new Intl.DateTimeFormat(language, {
        timeZone: "UTC",
        weekday: "long",
        month: "long",
        day: "numeric",
        year: "numeric",
      }).format(new Date(`${day}T12:00:00Z`)),
    price: (cents, currency) => {
      try {
        return new Intl.NumberFormat(language, {
          style: "currency",
          currency: currency.toUpperCase(),
        }).format(cents / 100);
      } catch {
        // A currency code Intl does not know: the amount and the code as the provider wrote it.
        return `${new Intl.NumberFormat(language, {
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
          useGrouping: false,
        }).format(cents / 100)} ${currency.toUpperCase()}`;
      }
    },
    fileSize: (bytes) => {
      const step = bytes === 0 ? 0 : Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), 3);
      const size = new Intl.NumberFormat(language, {
        maximumFractionDigits: 2,
        useGrouping: false,
      }).format(bytes / 1024 ** step);
      if (step === 0) return t("{{size}} Bytes", { size });
      if (step === 1) return t("{{size}} KB", { size });
      if (step === 2) return t("{{size}} MB", { size });
      return t("{{size}} GB", { size });
    },
  };
}
