import { useQuery } from "@tanstack/react-query";
import type { AccountTierInfo } from "../../../shared/schemas/user";
import { apiGet } from "../api/client";
import { queryKeys } from "../api/query-keys";
import { formatNumber } from "../i18n/formats";
import { i18n } from "../i18n/i18n";

export type { AccountTierInfo };

/** The owner's plan, client count and limits (GET /api/user/account-tier). */
export function useAccountTier() {
  return useQuery({
    queryKey: queryKeys.accountTier,
    queryFn: () => apiGet<AccountTierInfo>("/api/user/account-tier"),
  });
}

/** "3 / 10 clients", or "3 clients" with no limit. */
export function clientUsage(info: AccountTierInfo): string {
  const { clientCount, tierConfig } = info;
  return tierConfig.clientLimit === null
    ? i18n.t("{{count}} clients · Unlimited", { ns: "billing", count: clientCount })
    : i18n.t("{{used}} / {{limit}} clients", {
        ns: "billing",
        used: formatNumber(clientCount),
        limit: formatNumber(tierConfig.clientLimit),
      });
}
