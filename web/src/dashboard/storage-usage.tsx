import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import type { AccountTierInfo } from "../billing/account-tier-query";
import { numberFormat } from "../i18n/formats";

/**
 * A size as shared/files' formatFileSize writes it ("120 MB", "1.5 GB", binary steps, at most
 * two decimals), with the reader's decimal sign and unit (French: "1,5 Go").
 */
function storageSize(t: TFunction, bytes: number): string {
  const step = bytes > 0 ? Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), 3) : 0;
  const size = numberFormat({ maximumFractionDigits: 2, useGrouping: false }).format(
    bytes / 1024 ** step,
  );
  switch (step) {
    case 0:
      return t("{{size}} Bytes", { size });
    case 1:
      return t("{{size}} KB", { size });
    case 2:
      return t("{{size}} MB", { size });
    default:
      return t("{{size}} GB", { size });
  }
}

/** "120 MB of 1 GB used" and a bar: the owner's conversation files against the plan's quota. */
export function StorageUsage({ storage }: { storage: AccountTierInfo["storage"] }) {
  const { t } = useTranslation("dashboard");
  if (!storage) return null;
  const { usedBytes, quotaBytes } = storage;
  const share = quotaBytes > 0 ? Math.min(1, usedBytes / quotaBytes) : 1;
  const usage = t("{{used}} of {{quota}} used", {
    used: storageSize(t, usedBytes),
    quota: storageSize(t, quotaBytes),
  });
  return (
    <>
      <p className="plan-box__usage">{usage}</p>
      <div
        className={`plan-box__meter${share >= 0.9 ? " plan-box__meter--full" : ""}`}
        role="progressbar"
        aria-label={t("Storage used")}
        aria-valuemin={0}
        aria-valuemax={quotaBytes}
        aria-valuenow={usedBytes}
        aria-valuetext={usage}
      >
        <span style={{ width: `${share * 100}%` }} />
      </div>
    </>
  );
}
