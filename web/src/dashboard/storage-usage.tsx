import { formatFileSize } from "../../../shared/files";
import type { AccountTierInfo } from "../billing/account-tier-query";

/** "120 MB of 1 GB used" and a bar: the owner's conversation files against the plan's quota. */
export function StorageUsage({ storage }: { storage: AccountTierInfo["storage"] }) {
  if (!storage) return null;
  const { usedBytes, quotaBytes } = storage;
  const share = quotaBytes > 0 ? Math.min(1, usedBytes / quotaBytes) : 1;
  return (
    <>
      <p className="plan-box__usage">
        {formatFileSize(usedBytes)} of {formatFileSize(quotaBytes)} used
      </p>
      <div
        className={`plan-box__meter${share >= 0.9 ? " plan-box__meter--full" : ""}`}
        role="progressbar"
        aria-label="Storage used"
        aria-valuemin={0}
        aria-valuemax={quotaBytes}
        aria-valuenow={usedBytes}
        aria-valuetext={`${formatFileSize(usedBytes)} of ${formatFileSize(quotaBytes)} used`}
      >
        <span style={{ width: `${share * 100}%` }} />
      </div>
    </>
  );
}
