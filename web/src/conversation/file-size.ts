import { numberFormat } from "../i18n/formats";
import { i18n } from "../i18n/i18n";

/**
 * "1.5 MB", "1,5 Mo": shared/files' formatFileSize (the same steps of 1024 and at most two
 * decimals) in the reader's language.
 */
export function formatFileSize(bytes: number): string {
  const step = bytes === 0 ? 0 : Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), 3);
  const size = numberFormat({ maximumFractionDigits: 2, useGrouping: false }).format(
    bytes / 1024 ** step,
  );
  if (step === 1) return i18n.t("{{size}} KB", { ns: "conversation", size });
  if (step === 2) return i18n.t("{{size}} MB", { ns: "conversation", size });
  if (step === 3) return i18n.t("{{size}} GB", { ns: "conversation", size });
  return i18n.t("{{size}} Bytes", { ns: "conversation", size });
}
